#!/bin/sh
# VL455 offline-dp-env-rank-external-lb: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL455-offline-dp-env-rank-external-lb.json)
VLLM_DP_SIZE=2 VLLM_DP_RANK=1 vllm serve Qwen/Qwen3-30B-A3B --data-parallel-external-lb --data-parallel-rank 1
