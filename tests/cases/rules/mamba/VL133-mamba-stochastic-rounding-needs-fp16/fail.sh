#!/bin/sh
# VL133 mamba-stochastic-rounding-needs-fp16: a launch vLLM 0.20.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/mamba/VL133-mamba-stochastic-rounding-needs-fp16.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --enable-mamba-cache-stochastic-rounding
