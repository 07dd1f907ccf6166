#!/bin/sh
# VL238 multi-port-ranks-exceed-dp: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL238-multi-port-ranks-exceed-dp.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --data-parallel-start-rank 3
