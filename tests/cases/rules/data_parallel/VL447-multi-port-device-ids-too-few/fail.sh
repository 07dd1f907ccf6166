#!/bin/sh
# VL447 multi-port-device-ids-too-few: a launch vLLM 0.24.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL447-multi-port-device-ids-too-few.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb -tp 2 --device-ids 0,1,2
