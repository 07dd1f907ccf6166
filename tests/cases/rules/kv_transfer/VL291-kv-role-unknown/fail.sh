#!/bin/sh
# VL291 kv-role-unknown: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/kv_transfer/VL291-kv-role-unknown.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "producer"}'
