#!/bin/sh
# VL469 direct-reload-vs-online-quantization: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL469-direct-reload-vs-online-quantization.json)
VLLM_RELOAD_MODE=direct vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization fp8_per_tensor
