#!/bin/sh
# VL384 quant-config-unknown-quant-key: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL384-quant-config-unknown-quant-key.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"linear": {"weight": "fp8_per_tensor_static"}}'
