#!/bin/sh
# VL296 prompt-lookup-min-above-max: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL296-prompt-lookup-min-above-max.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_min": 2, "prompt_lookup_max": 5}'
