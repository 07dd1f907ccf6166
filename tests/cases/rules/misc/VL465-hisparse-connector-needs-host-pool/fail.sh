#!/bin/sh
# VL465 hisparse-connector-needs-host-pool: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL465-hisparse-connector-needs-host-pool.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both"}'
