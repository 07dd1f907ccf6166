#!/bin/sh
# VL386 quant-config-hadamard-shorthand-weight: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL386-quant-config-hadamard-shorthand-weight.json)
vllm serve Qwen/Qwen3-8B --quantization mxfp4_hadamard32 --quantization-config '{"linear": {"weight": "mxfp4", "activation": "mxfp4"}}'
