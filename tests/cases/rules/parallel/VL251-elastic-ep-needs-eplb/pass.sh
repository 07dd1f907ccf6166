#!/bin/sh
# VL251 elastic-ep-needs-eplb: a launch vLLM 0.17.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL251-elastic-ep-needs-eplb.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-eplb --enable-elastic-ep
