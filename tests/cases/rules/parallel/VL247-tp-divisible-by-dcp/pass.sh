#!/bin/sh
# VL247 tp-divisible-by-dcp: a launch vLLM 0.10.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL247-tp-divisible-by-dcp.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 4 -dcp 2
