#!/bin/sh
# VL402 batched-tokens-below-model-max-len: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL402-batched-tokens-below-model-max-len.json)
vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill --max-num-batched-tokens 16384
