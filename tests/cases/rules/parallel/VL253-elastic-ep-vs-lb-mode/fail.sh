#!/bin/sh
# VL253 elastic-ep-vs-lb-mode: a launch vLLM 0.17.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL253-elastic-ep-vs-lb-mode.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-eplb --enable-elastic-ep --data-parallel-rank 0
