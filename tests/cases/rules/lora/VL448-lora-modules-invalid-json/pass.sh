#!/bin/sh
# VL448 lora-modules-invalid-json: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL448-lora-modules-invalid-json.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --lora-modules sql=/adapters/sql '{"name": "chat", "path": "/adapters/chat"}'
