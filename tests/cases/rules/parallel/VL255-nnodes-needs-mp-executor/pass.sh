#!/bin/sh
# VL255 nnodes-needs-mp-executor: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL255-nnodes-needs-mp-executor.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 16 --nnodes 2 --node-rank 0 --distributed-executor-backend mp
