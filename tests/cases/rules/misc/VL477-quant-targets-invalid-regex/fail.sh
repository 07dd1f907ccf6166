#!/bin/sh
# VL477 quant-targets-invalid-regex: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL477-quant-targets-invalid-regex.json)
vllm serve Qwen/Qwen3-8B --quantization-config '{"targets": {"re:.*(q_proj": "fp8_per_tensor"}}'
