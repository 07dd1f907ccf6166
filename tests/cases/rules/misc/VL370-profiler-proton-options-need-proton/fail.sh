#!/bin/sh
# VL370 profiler-proton-options-need-proton: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL370-profiler-proton-options-need-proton.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"proton_data": "trace"}'
