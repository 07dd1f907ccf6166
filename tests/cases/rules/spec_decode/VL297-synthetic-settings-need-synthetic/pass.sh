#!/bin/sh
# VL297 synthetic-settings-need-synthetic: a launch vLLM 0.20.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL297-synthetic-settings-need-synthetic.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.0}'
