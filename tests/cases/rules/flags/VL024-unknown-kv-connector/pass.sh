#!/bin/sh
# VL024 unknown-kv-connector: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL024-unknown-kv-connector.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
