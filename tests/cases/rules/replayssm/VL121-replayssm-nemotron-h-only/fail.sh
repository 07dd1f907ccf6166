#!/bin/sh
# VL121 replayssm-nemotron-h-only: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/replayssm/VL121-replayssm-nemotron-h-only.json)
vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --use-replayssm
