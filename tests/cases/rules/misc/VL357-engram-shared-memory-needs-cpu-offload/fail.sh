#!/bin/sh
# VL357 engram-shared-memory-needs-cpu-offload: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL357-engram-shared-memory-needs-cpu-offload.json)
vllm serve Qwen/Qwen3-8B --engram-config '{"dp_shared_memory": true, "cpu_offload": false}'
