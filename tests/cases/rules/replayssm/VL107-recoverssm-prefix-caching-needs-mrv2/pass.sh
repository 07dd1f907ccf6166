#!/bin/sh
# VL107 recoverssm-prefix-caching-needs-mrv2: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL107-recoverssm-prefix-caching-needs-mrv2.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm --spec-method ngram --spec-tokens 1
