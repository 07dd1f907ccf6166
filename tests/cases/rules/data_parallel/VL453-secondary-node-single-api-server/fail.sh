#!/bin/sh
# VL453 secondary-node-single-api-server: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL453-secondary-node-single-api-server.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --nnodes 2 --node-rank 1 --api-server-count 1
