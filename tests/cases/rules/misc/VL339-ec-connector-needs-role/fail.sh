#!/bin/sh
# VL339 ec-connector-needs-role: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL339-ec-connector-needs-role.json)
vllm serve Qwen/Qwen3-8B --ec-transfer-config '{"ec_connector": "ECExampleConnector"}'
