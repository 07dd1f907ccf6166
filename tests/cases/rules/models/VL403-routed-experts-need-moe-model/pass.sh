#!/bin/sh
# VL403 routed-experts-need-moe-model: a launch vLLM 0.31.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL403-routed-experts-need-moe-model.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts
