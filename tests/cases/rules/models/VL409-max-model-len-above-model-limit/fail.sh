#!/bin/sh
# VL409 max-model-len-above-model-limit: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL409-max-model-len-above-model-limit.json)
vllm serve Qwen/Qwen3-8B --max-model-len 65536
