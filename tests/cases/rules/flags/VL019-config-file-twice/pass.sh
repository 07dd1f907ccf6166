#!/bin/sh
# VL019 config-file-twice: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL019-config-file-twice.json)
vllm serve Qwen/Qwen3-8B --config a.yaml
