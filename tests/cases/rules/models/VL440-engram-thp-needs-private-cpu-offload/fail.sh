#!/bin/sh
# VL440 engram-thp-needs-private-cpu-offload: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL440-engram-thp-needs-private-cpu-offload.json)
vllm serve Qwen/Qwen3-8B --engram-config '{"use_thp": true, "cpu_offload": false}'
