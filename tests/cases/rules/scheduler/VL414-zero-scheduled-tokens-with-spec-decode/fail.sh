#!/bin/sh
# VL414 zero-scheduled-tokens-with-spec-decode: a launch vLLM 0.26.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL414-zero-scheduled-tokens-with-spec-decode.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-scheduled-tokens 0 --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}'
