#!/bin/sh
# VL236 multi-port-needs-local-size: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL236-multi-port-needs-local-size.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb
