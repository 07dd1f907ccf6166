#!/bin/sh
# VL221 dp-external-lb-needs-rank: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL221-dp-external-lb-needs-rank.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --data-parallel-external-lb --data-parallel-rank 2
