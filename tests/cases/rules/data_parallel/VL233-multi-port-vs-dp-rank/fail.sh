#!/bin/sh
# VL233 multi-port-vs-dp-rank: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL233-multi-port-vs-dp-rank.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --data-parallel-rank 0
