#!/bin/sh
# VL381 quant-config-shorthand-lacks-layer-spec: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL381-quant-config-shorthand-lacks-layer-spec.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"moe": "lut_b_moe"}'
