#!/bin/sh
# VL134 mamba-prefix-caching-needs-chunked-prefill: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/mamba/VL134-mamba-prefix-caching-needs-chunked-prefill.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --no-enable-chunked-prefill --no-enable-prefix-caching
