#!/bin/sh
# VL295 spec-tensor-parallel-size-key: a launch vLLM 0.15.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL295-spec-tensor-parallel-size-key.json)
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "tensor_parallel_size": 2}'
