#!/bin/sh
# VL420 cudagraph-capture-sizes-above-cap: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL420-cudagraph-capture-sizes-above-cap.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"prefill_cudagraph_capture_token_sizes": [8, 16, 32], "max_prefill_cudagraph_capture_tokens": 32}'
