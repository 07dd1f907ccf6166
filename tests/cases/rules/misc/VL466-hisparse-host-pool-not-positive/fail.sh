#!/bin/sh
# VL466 hisparse-host-pool-not-positive: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL466-hisparse-host-pool-not-positive.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"host_pool_gib": 0}}'
