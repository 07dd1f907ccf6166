#!/bin/sh
# VL351 microbatching-needs-deepep-all2all: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL351-microbatching-needs-deepep-all2all.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --enable-dbo
