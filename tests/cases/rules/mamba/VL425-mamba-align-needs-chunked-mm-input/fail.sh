#!/bin/sh
# VL425 mamba-align-needs-chunked-mm-input: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/mamba/VL425-mamba-align-needs-chunked-mm-input.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --disable-chunked-mm-input
