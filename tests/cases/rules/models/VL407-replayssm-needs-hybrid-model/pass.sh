#!/bin/sh
# VL407 replayssm-needs-hybrid-model: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL407-replayssm-needs-hybrid-model.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm
