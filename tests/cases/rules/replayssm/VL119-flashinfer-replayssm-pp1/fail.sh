#!/bin/sh
# VL119 flashinfer-replayssm-pp1: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL119-flashinfer-replayssm-pp1.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer -pp 2
