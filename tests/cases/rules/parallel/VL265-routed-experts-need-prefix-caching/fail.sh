#!/bin/sh
# VL265 routed-experts-need-prefix-caching: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL265-routed-experts-need-prefix-caching.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts --no-enable-prefix-caching
