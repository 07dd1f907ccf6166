#!/bin/sh
# VL405 pcp-on-model-runner-v2-needs-mla: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL405-pcp-on-model-runner-v2-needs-mla.json)
vllm serve Qwen/Qwen3-8B -tp 4 -pcp 2
