#!/bin/sh
# VL353 pcp-needs-model-runner-v2: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL353-pcp-needs-model-runner-v2.json)
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve deepseek-ai/DeepSeek-V3 -tp 2 -pcp 2
