#!/bin/sh
# VL391 synthetic-length-out-of-range: a launch vLLM 0.20.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL391-synthetic-length-out-of-range.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 5.0}'
