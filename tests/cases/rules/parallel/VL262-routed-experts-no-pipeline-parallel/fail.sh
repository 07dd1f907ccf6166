#!/bin/sh
# VL262 routed-experts-no-pipeline-parallel: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL262-routed-experts-no-pipeline-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts -pp 2
