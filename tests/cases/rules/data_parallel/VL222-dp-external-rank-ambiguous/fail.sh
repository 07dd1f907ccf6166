#!/bin/sh
# VL222 dp-external-rank-ambiguous: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL222-dp-external-rank-ambiguous.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 3 -tp 2 --nnodes 2 --node-rank 0 --data-parallel-external-lb
