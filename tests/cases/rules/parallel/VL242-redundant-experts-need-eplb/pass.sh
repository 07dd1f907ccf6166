#!/bin/sh
# VL242 redundant-experts-need-eplb: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL242-redundant-experts-need-eplb.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -ep --enable-eplb --num-redundant-experts 2
