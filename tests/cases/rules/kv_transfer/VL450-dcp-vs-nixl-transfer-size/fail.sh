#!/bin/sh
# VL450 dcp-vs-nixl-transfer-size: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/kv_transfer/VL450-dcp-vs-nixl-transfer-size.json)
vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -dcp 2 --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
