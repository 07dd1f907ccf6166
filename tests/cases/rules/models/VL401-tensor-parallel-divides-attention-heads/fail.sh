#!/bin/sh
# VL401 tensor-parallel-divides-attention-heads: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL401-tensor-parallel-divides-attention-heads.json)
vllm serve Qwen/Qwen2.5-7B-Instruct -tp 8
