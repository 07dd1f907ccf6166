#!/bin/sh
# VL331 hisparse-needs-model-runner-v2: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL331-hisparse-needs-model-runner-v2.json)
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}'
