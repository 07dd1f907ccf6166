#!/bin/sh
# VL476 profiler-activities-duplicates: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL476-profiler-activities-duplicates.json)
vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch", "torch_profiler_dir": "/tmp/t", "torch_profiler_activities": ["CPU", "CUDA", "CPU"]}'
