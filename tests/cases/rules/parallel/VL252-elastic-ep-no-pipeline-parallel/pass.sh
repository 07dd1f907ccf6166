#!/bin/sh
# VL252 elastic-ep-no-pipeline-parallel: a launch vLLM 0.17.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL252-elastic-ep-no-pipeline-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-eplb --enable-elastic-ep
