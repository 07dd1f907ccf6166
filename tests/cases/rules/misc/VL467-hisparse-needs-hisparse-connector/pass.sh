#!/bin/sh
# VL467 hisparse-needs-hisparse-connector: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL467-hisparse-needs-hisparse-connector.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"host_pool_gib": 8}}'
