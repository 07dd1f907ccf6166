#!/bin/sh
# VL241 eplb-needs-parallelism: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL241-eplb-needs-parallelism.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-eplb --enable-expert-parallel
