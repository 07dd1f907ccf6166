#!/bin/sh
# VL005 bad-choice: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL005-bad-choice.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --mamba-backend FlashInfer
