#!/bin/sh
# VL104 replayssm-no-kv-connector: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL104-replayssm-no-kv-connector.json)
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --kv-offloading-size 4
