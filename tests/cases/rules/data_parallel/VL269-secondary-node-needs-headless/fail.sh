#!/bin/sh
# VL269 secondary-node-needs-headless: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL269-secondary-node-needs-headless.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --nnodes 2 --node-rank 1 --api-server-count 2
