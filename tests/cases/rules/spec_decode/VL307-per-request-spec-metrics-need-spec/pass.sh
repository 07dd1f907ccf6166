#!/bin/sh
# VL307 per-request-spec-metrics-need-spec: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL307-per-request-spec-metrics-need-spec.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --per-request-spec-decode-metrics summary --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 3}'
