#!/bin/sh
# VL257 nsight-executor-unset: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL257-nsight-executor-unset.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --ray-workers-use-nsight --distributed-executor-backend ray
