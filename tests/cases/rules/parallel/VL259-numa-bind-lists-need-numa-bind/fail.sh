#!/bin/sh
# VL259 numa-bind-lists-need-numa-bind: a launch vLLM 0.20.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL259-numa-bind-lists-need-numa-bind.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --numa-bind-nodes 0 1
