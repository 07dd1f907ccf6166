#!/bin/sh
# VL349 model-runner-v1-unsupported-feature: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL349-model-runner-v1-unsupported-feature.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -pcp 2
