#!/bin/sh
# VL410 quantization-vs-checkpoint: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL410-quantization-vs-checkpoint.json)
vllm serve Qwen/Qwen2.5-32B-Instruct-AWQ --quantization gptq
