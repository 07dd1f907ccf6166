#!/bin/sh
# VL352 microbatching-runner-unsupported: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL352-microbatching-runner-unsupported.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep -pp 2 --enable-dbo --all2all-backend deepep_low_latency
