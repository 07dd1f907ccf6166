#!/bin/sh
# VL112 triton-replayssm-needs-mrv1: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL112-triton-replayssm-needs-mrv1.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm
