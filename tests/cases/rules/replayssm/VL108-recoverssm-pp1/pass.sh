#!/bin/sh
# VL108 recoverssm-pp1: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL108-recoverssm-pp1.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm --spec-method ngram --spec-tokens 1 -pp 1 -tp 2 --no-enable-prefix-caching
