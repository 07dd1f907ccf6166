#!/bin/sh
# VL408 dcp-above-tensor-parallel-per-kv-head: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL408-dcp-above-tensor-parallel-per-kv-head.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 8 -dcp 2
