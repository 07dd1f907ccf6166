#!/bin/sh
# VL014 invalid-config-value: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL014-invalid-config-value.json)
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1
