#!/bin/sh
# VL304 adaptive-verification-vs-lora: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL304-adaptive-verification-vs-lora.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, "enable_adaptive_verification": true}'
