#!/bin/sh
# VL260 moonep-no-eplb: a launch vLLM 0.31.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL260-moonep-no-eplb.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --all2all-backend moonep
