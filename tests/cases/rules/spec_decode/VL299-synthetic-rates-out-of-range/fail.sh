#!/bin/sh
# VL299 synthetic-rates-out-of-range: a launch vLLM 0.20.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL299-synthetic-rates-out-of-range.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [1.2, 0.7, 0.5]}'
