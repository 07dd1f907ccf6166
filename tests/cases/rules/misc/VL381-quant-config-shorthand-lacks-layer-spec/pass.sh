#!/bin/sh
# VL381 quant-config-shorthand-lacks-layer-spec: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL381-quant-config-shorthand-lacks-layer-spec.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"moe": "int8_per_channel_weight_only"}'
