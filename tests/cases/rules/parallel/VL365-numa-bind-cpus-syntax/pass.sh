#!/bin/sh
# VL365 numa-bind-cpus-syntax: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL365-numa-bind-cpus-syntax.json)
vllm serve Qwen/Qwen3-8B --numa-bind --numa-bind-cpus 0-3 4,6-7
