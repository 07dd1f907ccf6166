#!/bin/sh
# VL464 hisparse-connector-given-twice: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL464-hisparse-connector-given-twice.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --kv-transfer-config '{"kv_connector": "MultiConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"connectors": [{"kv_connector": "HiSparseConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"host_pool_gib": 8}}, {"kv_connector": "HiSparseConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"host_pool_gib": 8}}]}}'
