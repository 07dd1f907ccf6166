#!/bin/sh
# VL248 dcp-with-pcp: a launch vLLM 0.26.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL248-dcp-with-pcp.json)
vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -pcp 2 -dcp 4
