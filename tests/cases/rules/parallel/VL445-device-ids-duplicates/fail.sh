#!/bin/sh
# VL445 device-ids-duplicates: a launch vLLM 0.24.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL445-device-ids-duplicates.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --device-ids 0,0
