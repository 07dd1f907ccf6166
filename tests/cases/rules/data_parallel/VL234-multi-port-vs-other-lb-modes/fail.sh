#!/bin/sh
# VL234 multi-port-vs-other-lb-modes: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL234-multi-port-vs-other-lb-modes.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --data-parallel-external-lb
