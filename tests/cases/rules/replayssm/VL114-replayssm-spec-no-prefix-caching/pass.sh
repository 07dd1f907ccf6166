#!/bin/sh
# VL114 replayssm-spec-no-prefix-caching: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL114-replayssm-spec-no-prefix-caching.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --speculative-config '{"method":"ngram","num_speculative_tokens":3}' --mamba-backend flashinfer --no-enable-prefix-caching
