#!/bin/sh
# VL102 replayssm-requires-triton: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL102-replayssm-requires-triton.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer
