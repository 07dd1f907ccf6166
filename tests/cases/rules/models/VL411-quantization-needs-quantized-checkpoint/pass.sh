#!/bin/sh
# VL411 quantization-needs-quantized-checkpoint: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL411-quantization-needs-quantized-checkpoint.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fp8
