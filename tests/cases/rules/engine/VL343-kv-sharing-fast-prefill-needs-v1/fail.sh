#!/bin/sh
# VL343 kv-sharing-fast-prefill-needs-v1: a launch vLLM 0.10.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL343-kv-sharing-fast-prefill-needs-v1.json)
VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-sharing-fast-prefill
