#!/bin/sh
# VL426 deprecated-capture-sizes-vs-split-sizes: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL426-deprecated-capture-sizes-vs-split-sizes.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"cudagraph_capture_sizes": [1, 2, 4, 8], "prefill_cudagraph_capture_token_sizes": [16], "decode_cudagraph_capture_request_sizes": [1]}'
