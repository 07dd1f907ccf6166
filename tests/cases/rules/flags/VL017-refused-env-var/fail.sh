#!/bin/sh
# VL017 refused-env-var: a launch vLLM 0.17.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL017-refused-env-var.json)
VLLM_ATENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-8B --fail-on-environ-validation
