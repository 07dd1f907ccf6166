#!/bin/sh
# VL341 headless-needs-v1-engine: a launch vLLM 0.9.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL341-headless-needs-v1-engine.json)
VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct -dp 2 --headless
