#!/bin/sh
# VL479 numa-bind-cpus-descending-range: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL479-numa-bind-cpus-descending-range.json)
vllm serve Qwen/Qwen3-8B --numa-bind --numa-bind-cpus 0-3 4-7
