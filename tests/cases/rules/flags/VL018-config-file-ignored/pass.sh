#!/bin/sh
# VL018 config-file-ignored: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL018-config-file-ignored.json)
vllm serve Qwen/Qwen3-8B --max-model-len 4096
