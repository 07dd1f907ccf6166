#!/bin/sh
# VL403 routed-experts-need-moe-model: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL403-routed-experts-need-moe-model.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-return-routed-experts
