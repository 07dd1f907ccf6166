#!/bin/sh
# VL380 quant-spec-hadamard-size-power-of-two: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL380-quant-spec-hadamard-size-power-of-two.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"linear": {"weight": "mxfp4", "hadamard_size": 32}}'
