#!/bin/sh
# VL229 dp-size-local-exceeds-dp: a launch vLLM 0.9.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL229-dp-size-local-exceeds-dp.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -dpl 4
