#!/bin/sh
# VL383 histogram-bucket-boolean-bound: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL383-histogram-bucket-boolean-bound.json)
vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [0.5, true]}'
