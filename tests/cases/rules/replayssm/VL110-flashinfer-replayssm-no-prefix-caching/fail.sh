#!/bin/sh
# VL110 flashinfer-replayssm-no-prefix-caching: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL110-flashinfer-replayssm-no-prefix-caching.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer
