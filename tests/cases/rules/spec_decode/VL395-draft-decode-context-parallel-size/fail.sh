#!/bin/sh
# VL395 draft-decode-context-parallel-size: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL395-draft-decode-context-parallel-size.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3, "draft_decode_context_parallel_size": 2}'
