#!/bin/sh
# VL343 kv-sharing-fast-prefill-needs-v1: a launch vLLM 0.10.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL343-kv-sharing-fast-prefill-needs-v1.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-sharing-fast-prefill
