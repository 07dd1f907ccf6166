#!/bin/sh
# VL398 routed-experts-vs-adaptive-verification: a launch vLLM 0.31.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL398-routed-experts-vs-adaptive-verification.json)
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 3}'
