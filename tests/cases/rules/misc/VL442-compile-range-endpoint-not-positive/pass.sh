#!/bin/sh
# VL442 compile-range-endpoint-not-positive: a launch vLLM 0.18.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL442-compile-range-endpoint-not-positive.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"compile_ranges_endpoints": [8, 256]}'
