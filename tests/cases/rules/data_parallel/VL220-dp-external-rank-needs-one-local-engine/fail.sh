#!/bin/sh
# VL220 dp-external-rank-needs-one-local-engine: a launch vLLM 0.9.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL220-dp-external-rank-needs-one-local-engine.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 --data-parallel-rank 0 -dpl 2
