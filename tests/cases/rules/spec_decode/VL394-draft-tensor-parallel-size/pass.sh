#!/bin/sh
# VL394 draft-tensor-parallel-size: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL394-draft-tensor-parallel-size.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 4 --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3, "draft_tensor_parallel_size": 1}'
