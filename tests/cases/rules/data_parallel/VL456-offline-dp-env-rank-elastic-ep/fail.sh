#!/bin/sh
# VL456 offline-dp-env-rank-elastic-ep: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL456-offline-dp-env-rank-elastic-ep.json)
VLLM_DP_SIZE=2 VLLM_DP_RANK=1 vllm serve Qwen/Qwen3-30B-A3B --enable-elastic-ep --enable-expert-parallel --enable-eplb --eplb-config.use_async=false
