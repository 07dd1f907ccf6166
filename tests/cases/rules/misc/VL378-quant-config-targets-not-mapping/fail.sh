#!/bin/sh
# VL378 quant-config-targets-not-mapping: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL378-quant-config-targets-not-mapping.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"targets": "fp8_per_tensor"}'
