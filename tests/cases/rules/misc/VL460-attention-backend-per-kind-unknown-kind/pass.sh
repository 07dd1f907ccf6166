#!/bin/sh
# VL460 attention-backend-per-kind-unknown-kind: a launch vLLM 0.26.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL460-attention-backend-per-kind-unknown-kind.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --attention-config '{"backend_per_kind": {"full_attention": "FLASH_ATTN"}}'
