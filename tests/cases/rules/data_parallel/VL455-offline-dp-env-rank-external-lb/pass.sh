#!/bin/sh
# VL455 offline-dp-env-rank-external-lb: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL455-offline-dp-env-rank-external-lb.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 --data-parallel-external-lb --data-parallel-rank 1
