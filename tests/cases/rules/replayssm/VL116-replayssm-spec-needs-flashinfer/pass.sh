#!/bin/sh
# VL116 replayssm-spec-needs-flashinfer: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL116-replayssm-spec-needs-flashinfer.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --speculative-config '{"method":"ngram","num_speculative_tokens":3}' --mamba-backend flashinfer --no-enable-prefix-caching
