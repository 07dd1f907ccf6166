#!/bin/sh
# VL451 nnodes-vs-dp-node-groups: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL451-nnodes-vs-dp-node-groups.json)
vllm serve Qwen/Qwen3-30B-A3B --nnodes 2 -dp 3 -tp 2
