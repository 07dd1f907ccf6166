#!/bin/sh
# VL240 eplb-needs-expert-parallel: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL240-eplb-needs-expert-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-eplb
