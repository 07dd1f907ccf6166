#!/bin/sh
# VL268 multi-port-vs-uds: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL268-multi-port-vs-uds.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb
