#!/bin/sh
# VL477 quant-targets-invalid-regex: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL477-quant-targets-invalid-regex.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"targets": {"re:.*(q|k)_proj": "fp8_per_tensor"}}'
