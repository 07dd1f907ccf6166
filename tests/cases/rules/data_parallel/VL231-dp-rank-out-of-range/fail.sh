#!/bin/sh
# VL231 dp-rank-out-of-range: a launch vLLM 0.9.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL231-dp-rank-out-of-range.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --data-parallel-rank 4
