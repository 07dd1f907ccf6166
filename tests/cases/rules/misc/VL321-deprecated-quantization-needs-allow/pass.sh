#!/bin/sh
# VL321 deprecated-quantization-needs-allow: a launch vLLM 0.14.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL321-deprecated-quantization-needs-allow.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization deepspeedfp --allow-deprecated-quantization
