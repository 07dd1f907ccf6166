#!/bin/sh
# VL334 profiler-activities-need-torch: a launch vLLM 0.31.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL334-profiler-activities-need-torch.json)
vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch", "torch_profiler_dir": "/tmp/t", "torch_profiler_activities": ["CPU"]}'
