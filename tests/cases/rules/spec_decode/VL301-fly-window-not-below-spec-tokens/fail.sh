#!/bin/sh
# VL301 fly-window-not-below-spec-tokens: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL301-fly-window-not-below-spec-tokens.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, "rejection_sample_method": "fly", "fly_window_size": 4}'
