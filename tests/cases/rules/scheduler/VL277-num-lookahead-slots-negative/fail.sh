#!/bin/sh
# VL277 num-lookahead-slots-negative: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL277-num-lookahead-slots-negative.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-lookahead-slots -1
