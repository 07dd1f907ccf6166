#!/bin/sh
# VL105 recoverssm-kimi-only: a launch vLLM 0.29.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL105-recoverssm-kimi-only.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --speculative-config '{"method":"ngram","num_speculative_tokens":3}'
