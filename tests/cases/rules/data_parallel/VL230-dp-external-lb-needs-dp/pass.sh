#!/bin/sh
# VL230 dp-external-lb-needs-dp: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL230-dp-external-lb-needs-dp.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 --data-parallel-rank 0
