#!/bin/sh
# VL309 histogram-bucket-not-positive: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL309-histogram-bucket-not-positive.json)
vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [0.5, 1]}'
