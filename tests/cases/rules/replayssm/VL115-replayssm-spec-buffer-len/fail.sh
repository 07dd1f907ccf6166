#!/bin/sh
# VL115 replayssm-spec-buffer-len: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL115-replayssm-spec-buffer-len.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --mamba-backend flashinfer --no-enable-prefix-caching --replayssm-buffer-len 4 --speculative-config '{"method":"ngram","num_speculative_tokens":5}'
