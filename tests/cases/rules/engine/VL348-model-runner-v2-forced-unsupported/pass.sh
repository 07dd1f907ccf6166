#!/bin/sh
# VL348 model-runner-v2-forced-unsupported: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL348-model-runner-v2-forced-unsupported.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-dbo
