#!/bin/sh
# VL424 fuse-attn-quant-vs-attention-splitting-ops: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL424-fuse-attn-quant-vs-attention-splitting-ops.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"pass_config": {"fuse_attn_quant": true}, "splitting_ops": ["vllm::unified_attention_with_output", "vllm::unified_mla_attention_with_output", "vllm::mamba_mixer2", "vllm::mamba_mixer", "vllm::short_conv", "vllm::linear_attention", "vllm::qwen_gdn_attention_core", "vllm::qwen_gdn_attention_core_fused_norm_packed", "vllm::gdn_attention_core_xpu", "vllm::olmo_hybrid_gdn_full_forward", "vllm::sparse_attn_indexer", "vllm::rocm_aiter_sparse_attn_indexer", "vllm::deepseek_v4_attention", "vllm::hpc_rope_norm_forward"]}'
