#!/bin/sh
# VL120 model-runner-v1-removed: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL120-model-runner-v1-removed.json)
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm
