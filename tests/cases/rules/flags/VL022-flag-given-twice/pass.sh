#!/bin/sh
# VL022 flag-given-twice: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL022-flag-given-twice.json)
vllm serve Qwen/Qwen3-8B --max-model-len 4096 --max-model-len 4096
