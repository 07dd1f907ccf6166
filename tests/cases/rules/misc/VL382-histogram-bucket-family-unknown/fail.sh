#!/bin/sh
# VL382 histogram-bucket-family-unknown: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL382-histogram-bucket-family-unknown.json)
vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"e2e_latency": [0.5, 1]}'
