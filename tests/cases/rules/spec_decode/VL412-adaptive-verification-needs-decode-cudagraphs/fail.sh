#!/bin/sh
# VL412 adaptive-verification-needs-decode-cudagraphs: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL412-adaptive-verification-needs-decode-cudagraphs.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"cudagraph_mode": "FULL_AND_PIECEWISE", "decode_cudagraph_capture_request_sizes": []}' --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "enable_adaptive_verification": true}'
