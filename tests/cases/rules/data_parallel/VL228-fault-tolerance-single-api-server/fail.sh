#!/bin/sh
# VL228 fault-tolerance-single-api-server: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL228-fault-tolerance-single-api-server.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 --data-parallel-rank 0 --enable-fault-tolerance --api-server-count 2
