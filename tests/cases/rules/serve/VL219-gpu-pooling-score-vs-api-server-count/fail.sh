#!/bin/sh
# VL219 gpu-pooling-score-vs-api-server-count: a launch vLLM 0.17.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL219-gpu-pooling-score-vs-api-server-count.json)
vllm serve Qwen/Qwen3-30B-A3B --use-gpu-for-pooling-score -asc 2
