#!/bin/sh
# VL434 sampling-replay-vs-adaptive-verification: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL434-sampling-replay-vs-adaptive-verification.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --speculative-config '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":3,"enable_adaptive_verification":true}'
