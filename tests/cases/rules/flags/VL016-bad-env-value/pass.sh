#!/bin/sh
# VL016 bad-env-value: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL016-bad-env-value.json)
VLLM_FLOAT32_MATMUL_PRECISION=High vllm serve Qwen/Qwen3-8B
