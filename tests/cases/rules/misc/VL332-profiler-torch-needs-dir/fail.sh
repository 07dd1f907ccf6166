#!/bin/sh
# VL332 profiler-torch-needs-dir: a launch vLLM 0.16.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL332-profiler-torch-needs-dir.json)
vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch"}'
