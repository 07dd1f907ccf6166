#!/bin/sh
# VL400 dcp-tensor-parallel-not-above-kv-heads: a launch vLLM 0.27.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL400-dcp-tensor-parallel-not-above-kv-heads.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 8 -dcp 2
