#!/bin/sh
# VL216 start-rank-needs-headless: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL216-start-rank-needs-headless.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-start-rank 2 --headless
