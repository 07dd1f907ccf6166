#!/bin/sh
# VL454 offline-dp-env-local-size: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL454-offline-dp-env-local-size.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2
