#!/bin/sh
# VL404 hybrid-model-no-microbatching: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL404-hybrid-model-no-microbatching.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --ubatch-size 2 --all2all-backend deepep_low_latency
