#!/bin/sh
# VL454 offline-dp-env-local-size: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL454-offline-dp-env-local-size.json)
VLLM_DP_SIZE=4 vllm serve Qwen/Qwen3-30B-A3B -dpl 2
