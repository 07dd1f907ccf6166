#!/bin/sh
# VL348 model-runner-v2-forced-unsupported: a launch vLLM 0.20.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL348-model-runner-v2-forced-unsupported.json)
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-dbo
