#!/bin/sh
# VL406 expert-parallel-needs-moe-model: a launch vLLM 0.8.5.post1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/models/VL406-expert-parallel-needs-moe-model.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel
