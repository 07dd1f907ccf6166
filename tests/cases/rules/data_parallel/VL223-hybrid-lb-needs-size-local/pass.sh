#!/bin/sh
# VL223 hybrid-lb-needs-size-local: a launch vLLM 0.10.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL223-hybrid-lb-needs-size-local.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-hybrid-lb
