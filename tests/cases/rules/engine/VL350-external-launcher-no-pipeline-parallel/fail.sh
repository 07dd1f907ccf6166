#!/bin/sh
# VL350 external-launcher-no-pipeline-parallel: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL350-external-launcher-no-pipeline-parallel.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -pp 2 --distributed-executor-backend external_launcher
