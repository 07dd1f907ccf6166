#!/bin/sh
# VL237 multi-port-dp-divisible-by-local: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL237-multi-port-dp-divisible-by-local.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 8 -dpl 4 --data-parallel-multi-port-external-lb
