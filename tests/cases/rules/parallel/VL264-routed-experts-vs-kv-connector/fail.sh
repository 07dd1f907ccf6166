#!/bin/sh
# VL264 routed-experts-vs-kv-connector: a launch vLLM 0.22.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL264-routed-experts-vs-kv-connector.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
