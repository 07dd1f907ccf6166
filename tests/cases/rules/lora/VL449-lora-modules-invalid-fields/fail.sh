#!/bin/sh
# VL449 lora-modules-invalid-fields: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL449-lora-modules-invalid-fields.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --lora-modules '{"name": "sql"}'
