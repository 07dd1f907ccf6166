#!/bin/sh
# VL385 quant-config-quant-key-not-string: a launch vLLM 0.22.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL385-quant-config-quant-key-not-string.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"linear": {"weight": "fp8_per_tensor_static", "activation": null}}'
