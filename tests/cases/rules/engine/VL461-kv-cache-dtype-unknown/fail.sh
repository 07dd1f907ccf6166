#!/bin/sh
# VL461 kv-cache-dtype-unknown: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL461-kv-cache-dtype-unknown.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp9
