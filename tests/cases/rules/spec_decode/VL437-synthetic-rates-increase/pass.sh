#!/bin/sh
# VL437 synthetic-rates-increase: a launch vLLM 0.20.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL437-synthetic-rates-increase.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.9, 0.8, 0.8]}'
