#!/bin/sh
# VL012 ignored-json-key: a launch vLLM 0.15.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL012-ignored-json-key.json)
vllm serve meta-llama/Llama-3.1-8B --speculative-config '{"method": "ngram", "num_speculative_token": 3}'
