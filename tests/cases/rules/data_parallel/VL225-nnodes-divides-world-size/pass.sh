#!/bin/sh
# VL225 nnodes-divides-world-size: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL225-nnodes-divides-world-size.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --nnodes 2 --node-rank 0
