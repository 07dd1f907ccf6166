#!/bin/sh
# VL600 lifted-vllm-check: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL600-lifted-vllm-check.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --profiler-config '{"capture_torch_profiler": false, "profiler": "cuda"}'
