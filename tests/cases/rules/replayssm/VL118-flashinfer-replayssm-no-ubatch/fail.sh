#!/bin/sh
# VL118 flashinfer-replayssm-no-ubatch: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL118-flashinfer-replayssm-no-ubatch.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer --enable-dbo
