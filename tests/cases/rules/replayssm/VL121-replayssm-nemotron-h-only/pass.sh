#!/bin/sh
# VL121 replayssm-nemotron-h-only: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL121-replayssm-nemotron-h-only.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm
