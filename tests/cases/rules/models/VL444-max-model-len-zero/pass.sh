#!/bin/sh
# VL444 max-model-len-zero: a launch vLLM 0.23.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL444-max-model-len-zero.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 2048
