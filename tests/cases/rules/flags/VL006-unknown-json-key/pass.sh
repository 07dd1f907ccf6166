#!/bin/sh
# VL006 unknown-json-key: a launch vLLM 0.16.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL006-unknown-json-key.json)
vllm serve meta-llama/Llama-3.1-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3}'
