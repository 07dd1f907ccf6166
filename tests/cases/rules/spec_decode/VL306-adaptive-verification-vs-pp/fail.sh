#!/bin/sh
# VL306 adaptive-verification-vs-pp: a launch vLLM 0.29.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL306-adaptive-verification-vs-pp.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -pp 2 --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, "enable_adaptive_verification": true}'
