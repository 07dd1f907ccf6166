#!/bin/sh
# VL399 batched-tokens-within-draft-lookahead: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL399-batched-tokens-within-draft-lookahead.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-seqs 2 --max-num-batched-tokens 4 --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3}'
