#!/bin/sh
# VL254 elastic-ep-max-dp-below-dp: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL254-elastic-ep-max-dp-below-dp.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -ep --enable-eplb --enable-elastic-ep --elastic-ep-max-dp-size 8
