#!/bin/sh
# VL286 lora-spec-decode-token-budget: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL286-lora-spec-decode-token-budget.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-num-seqs 256 --max-num-batched-tokens 512 --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}'
