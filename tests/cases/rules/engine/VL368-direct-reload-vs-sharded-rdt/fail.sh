#!/bin/sh
# VL368 direct-reload-vs-sharded-rdt: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL368-direct-reload-vs-sharded-rdt.json)
VLLM_RELOAD_MODE=direct vllm serve meta-llama/Llama-3.1-8B-Instruct --weight-transfer-config '{"backend": "sharded_rdt"}'
