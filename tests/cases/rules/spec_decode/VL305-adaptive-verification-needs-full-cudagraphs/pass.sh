#!/bin/sh
# VL305 adaptive-verification-needs-full-cudagraphs: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL305-adaptive-verification-needs-full-cudagraphs.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, "enable_adaptive_verification": true}'
