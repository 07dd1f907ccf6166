#!/bin/sh
# VL432 moonep-needs-bf16: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL432-moonep-needs-bf16.json)
vllm serve Qwen/Qwen3-30B-A3B --all2all-backend moonep --enable-expert-parallel --tensor-parallel-size 2 --dtype float16
