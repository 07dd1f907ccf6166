#!/bin/sh
# VL363 custom-op-syntax: a launch vLLM 0.11.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL363-custom-op-syntax.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"custom_ops": ["rms_norm"]}'
