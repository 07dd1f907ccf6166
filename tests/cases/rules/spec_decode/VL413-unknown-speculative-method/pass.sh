#!/bin/sh
# VL413 unknown-speculative-method: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL413-unknown-speculative-method.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}'
