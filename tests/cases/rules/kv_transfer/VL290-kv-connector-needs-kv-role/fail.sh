#!/bin/sh
# VL290 kv-connector-needs-kv-role: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/kv_transfer/VL290-kv-connector-needs-kv-role.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-transfer-config '{"kv_connector": "NixlConnector"}'
