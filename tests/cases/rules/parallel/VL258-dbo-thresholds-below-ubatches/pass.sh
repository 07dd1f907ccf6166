#!/bin/sh
# VL258 dbo-thresholds-below-ubatches: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL258-dbo-thresholds-below-ubatches.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --ubatch-size 4 --all2all-backend deepep_low_latency
