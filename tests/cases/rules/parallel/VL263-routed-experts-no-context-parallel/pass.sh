#!/bin/sh
# VL263 routed-experts-no-context-parallel: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL263-routed-experts-no-context-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts -tp 8
