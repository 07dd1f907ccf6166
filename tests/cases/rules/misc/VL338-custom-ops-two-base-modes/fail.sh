#!/bin/sh
# VL338 custom-ops-two-base-modes: a launch vLLM 0.27.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL338-custom-ops-two-base-modes.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"custom_ops": ["all", "none"]}'
