#!/bin/sh
# VL217 dp-lb-modes-exclusive: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL217-dp-lb-modes-exclusive.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-hybrid-lb --data-parallel-external-lb --data-parallel-rank 0
