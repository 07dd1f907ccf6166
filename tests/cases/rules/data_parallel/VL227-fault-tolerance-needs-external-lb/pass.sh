#!/bin/sh
# VL227 fault-tolerance-needs-external-lb: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL227-fault-tolerance-needs-external-lb.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 --data-parallel-rank 0 --enable-fault-tolerance
