#!/bin/sh
# VL379 quant-config-targets-vs-linear-moe: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL379-quant-config-targets-vs-linear-moe.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"targets": {"re:.*mlp.*": "fp8_per_tensor"}, "linear": {"weight": "fp8_per_tensor_static"}}'
