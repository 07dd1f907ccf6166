#!/bin/sh
# VL243 redundant-experts-negative: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL243-redundant-experts-negative.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -ep --enable-eplb
