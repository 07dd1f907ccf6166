#!/bin/sh
# VL258 dbo-thresholds-below-ubatches: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL258-dbo-thresholds-below-ubatches.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --ubatch-size 64 --all2all-backend deepep_low_latency
