#!/bin/sh
# VL117 flashinfer-replayssm-align-bf16: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL117-flashinfer-replayssm-align-bf16.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer --dtype bfloat16
