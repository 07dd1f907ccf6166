#!/bin/sh
# VL108 recoverssm-pp1: a launch vLLM 0.29.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL108-recoverssm-pp1.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm --spec-method ngram --spec-tokens 1 -pp 2
