#!/bin/sh
# VL249 pcp-vs-data-parallel: a launch vLLM 0.26.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL249-pcp-vs-data-parallel.json)
vllm serve deepseek-ai/DeepSeek-V3 -pcp 2 -dp 2
