#!/bin/sh
# VL101 replayssm-no-spec-decode: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL101-replayssm-no-spec-decode.json)
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --use-replayssm --speculative-config '{"method":"ngram","num_speculative_tokens":3}'
