#!/bin/sh
# VL015 unknown-env-var: a launch vLLM 0.20.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL015-unknown-env-var.json)
VLLM_ATENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-8B
