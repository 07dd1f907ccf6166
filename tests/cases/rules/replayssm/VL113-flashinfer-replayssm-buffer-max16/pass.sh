#!/bin/sh
# VL113 flashinfer-replayssm-buffer-max16: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL113-flashinfer-replayssm-buffer-max16.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer --no-enable-prefix-caching --replayssm-buffer-len 16
