#!/bin/sh
# VL342 api-servers-need-v1-engine: a launch vLLM 0.9.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL342-api-servers-need-v1-engine.json)
VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --api-server-count 2
