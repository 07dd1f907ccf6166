#!/bin/sh
# VL342 api-servers-need-v1-engine: a launch vLLM 0.9.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL342-api-servers-need-v1-engine.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --api-server-count 2
