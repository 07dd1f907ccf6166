#!/bin/sh
# VL103 replayssm-cache-mode-all: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL103-replayssm-cache-mode-all.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --enable-prefix-caching --mamba-cache-mode align
