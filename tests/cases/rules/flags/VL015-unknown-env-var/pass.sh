#!/bin/sh
# VL015 unknown-env-var: a launch vLLM 0.20.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL015-unknown-env-var.json)
VLLM_LOGGING_LEVEL=INFO vllm serve Qwen/Qwen3-8B
