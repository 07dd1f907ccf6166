#!/bin/sh
# VL122 replayssm-no-microbatching: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL122-replayssm-no-microbatching.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --ubatch-size 1
