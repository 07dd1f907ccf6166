#!/bin/sh
# VL132 mamba-ssu-algorithm-needs-flashinfer: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/mamba/VL132-mamba-ssu-algorithm-needs-flashinfer.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --mamba-ssu-algorithm auto
