#!/bin/sh
# VL285 lora-vs-mega-moe-backend: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL285-lora-vs-mega-moe-backend.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-lora --moe-backend deep_gemm_mega_moe
