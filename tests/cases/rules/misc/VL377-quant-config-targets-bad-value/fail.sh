#!/bin/sh
# VL377 quant-config-targets-bad-value: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL377-quant-config-targets-bad-value.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"targets": {"re:.*mlp.*": 8}}'
