#!/bin/sh
# VL430 kv-cache-dtype-vs-dtype: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL430-kv-cache-dtype-vs-dtype.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype float16 --dtype half
