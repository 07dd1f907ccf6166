#!/bin/sh
# VL111 replayssm-no-cpu-backend: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL111-replayssm-no-cpu-backend.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend cpu
