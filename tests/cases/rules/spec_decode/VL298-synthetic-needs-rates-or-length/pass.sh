#!/bin/sh
# VL298 synthetic-needs-rates-or-length: a launch vLLM 0.20.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL298-synthetic-needs-rates-or-length.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.9, 0.7, 0.5]}'
