#!/bin/sh
# VL366 direct-reload-vs-lora: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL366-direct-reload-vs-lora.json)
VLLM_RELOAD_MODE=direct vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora
