#!/bin/sh
# VL356 multi-port-local-exceeds-dp: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL356-multi-port-local-exceeds-dp.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -dpl 4 --data-parallel-multi-port-external-lb
