#!/bin/sh
# VL212 headless-vs-api-server-count: a launch vLLM 0.9.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL212-headless-vs-api-server-count.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 --headless
