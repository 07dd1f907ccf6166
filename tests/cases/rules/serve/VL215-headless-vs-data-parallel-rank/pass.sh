#!/bin/sh
# VL215 headless-vs-data-parallel-rank: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL215-headless-vs-data-parallel-rank.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-start-rank 2 --headless
