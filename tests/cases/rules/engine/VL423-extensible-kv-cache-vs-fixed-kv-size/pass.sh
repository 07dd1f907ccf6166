#!/bin/sh
# VL423 extensible-kv-cache-vs-fixed-kv-size: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL423-extensible-kv-cache-vs-fixed-kv-size.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-extensible-kv-cache
