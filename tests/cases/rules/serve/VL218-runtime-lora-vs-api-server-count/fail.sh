#!/bin/sh
# VL218 runtime-lora-vs-api-server-count: a launch vLLM 0.9.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL218-runtime-lora-vs-api-server-count.json)
VLLM_ALLOW_RUNTIME_LORA_UPDATING=True vllm serve Qwen/Qwen3-30B-A3B --enable-lora -asc 2
