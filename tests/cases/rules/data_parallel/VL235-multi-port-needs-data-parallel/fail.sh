#!/bin/sh
# VL235 multi-port-needs-data-parallel: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL235-multi-port-needs-data-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-multi-port-external-lb -dpl 2
