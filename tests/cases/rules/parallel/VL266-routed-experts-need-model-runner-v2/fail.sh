#!/bin/sh
# VL266 routed-experts-need-model-runner-v2: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL266-routed-experts-need-model-runner-v2.json)
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts
