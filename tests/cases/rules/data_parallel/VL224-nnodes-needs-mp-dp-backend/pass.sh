#!/bin/sh
# VL224 nnodes-needs-mp-dp-backend: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL224-nnodes-needs-mp-dp-backend.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --nnodes 2 --node-rank 0
