#!/bin/sh
# VL389 ir-op-priority-not-strings: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL389-ir-op-priority-not-strings.json)
vllm serve Qwen/Qwen3-8B --ir-op-priority '{"rms_norm": ["native"]}'
