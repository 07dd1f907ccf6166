#!/bin/sh
# VL308 adaptive-verification-needs-dspark: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL308-adaptive-verification-needs-dspark.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, "enable_adaptive_verification": false}'
