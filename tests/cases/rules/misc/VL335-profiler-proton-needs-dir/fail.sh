#!/bin/sh
# VL335 profiler-proton-needs-dir: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL335-profiler-proton-needs-dir.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton"}'
