#!/bin/sh
# VL357 engram-shared-memory-needs-cpu-offload: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL357-engram-shared-memory-needs-cpu-offload.json)
vllm serve Qwen/Qwen3-8B
