#!/bin/sh
# VL109 recoverssm-triton: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL109-recoverssm-triton.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm --spec-method ngram --spec-tokens 1 --mamba-backend triton --no-enable-prefix-caching
