#!/bin/sh
# VL475 histogram-buckets-not-increasing: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL475-histogram-buckets-not-increasing.json)
vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [0.5, 1, 5]}'
