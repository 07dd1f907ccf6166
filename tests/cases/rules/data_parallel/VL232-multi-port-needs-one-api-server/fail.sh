#!/bin/sh
# VL232 multi-port-needs-one-api-server: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL232-multi-port-needs-one-api-server.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --api-server-count 2
