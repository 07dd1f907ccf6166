#!/bin/sh
# VL293 spec-option-not-for-ngram: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL293-spec-option-not-for-ngram.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "xpress_topc": 0}'
