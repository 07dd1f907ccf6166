#!/bin/sh
# VL470 direct-reload-vs-draft-lm-head-quantization: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL470-direct-reload-vs-draft-lm-head-quantization.json)
VLLM_RELOAD_MODE=direct vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "mtp", "num_speculative_tokens": 1, "draft_lm_head_quantization": "fp8"}'
