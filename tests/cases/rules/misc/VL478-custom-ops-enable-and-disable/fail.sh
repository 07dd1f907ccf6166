#!/bin/sh
# VL478 custom-ops-enable-and-disable: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL478-custom-ops-enable-and-disable.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"custom_ops": ["+rms_norm", "-rms_norm"]}'
