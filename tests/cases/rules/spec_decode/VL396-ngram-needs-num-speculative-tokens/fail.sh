#!/bin/sh
# VL396 ngram-needs-num-speculative-tokens: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL396-ngram-needs-num-speculative-tokens.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "prompt_lookup_max": 4}'
