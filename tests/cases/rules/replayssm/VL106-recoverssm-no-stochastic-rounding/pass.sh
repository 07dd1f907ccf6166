#!/bin/sh
# VL106 recoverssm-no-stochastic-rounding: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL106-recoverssm-no-stochastic-rounding.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm --spec-method ngram --spec-tokens 1 --no-enable-prefix-caching
