#!/bin/sh
# VL292 kv-connector-vs-expandable-segments: a launch vLLM 0.21.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/kv_transfer/VL292-kv-connector-vs-expandable-segments.json)
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
