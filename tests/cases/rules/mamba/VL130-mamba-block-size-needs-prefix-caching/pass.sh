#!/bin/sh
# VL130 mamba-block-size-needs-prefix-caching: a launch vLLM 0.11.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/mamba/VL130-mamba-block-size-needs-prefix-caching.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --mamba-block-size 256 --enable-prefix-caching
