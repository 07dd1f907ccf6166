#!/bin/sh
# VL446 device-ids-mixed: a launch vLLM 0.24.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL446-device-ids-mixed.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --device-ids 0,GPU-a
