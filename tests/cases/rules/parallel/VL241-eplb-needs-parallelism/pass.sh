#!/bin/sh
# VL241 eplb-needs-parallelism: a launch vLLM 0.10.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL241-eplb-needs-parallelism.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-eplb --enable-expert-parallel
