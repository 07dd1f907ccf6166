#!/bin/sh
# VL239 multi-port-supervisor-port-overlap: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL239-multi-port-supervisor-port-overlap.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --port 9255
