#!/bin/sh
# VL424 fuse-attn-quant-vs-attention-splitting-ops: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL424-fuse-attn-quant-vs-attention-splitting-ops.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"pass_config": {"fuse_attn_quant": true}, "splitting_ops": ["vllm::unified_attention_with_output"]}'
