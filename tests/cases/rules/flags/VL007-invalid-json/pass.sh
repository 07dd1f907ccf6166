#!/bin/sh
# VL007 invalid-json: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL007-invalid-json.json)
vllm serve meta-llama/Llama-3.1-8B --compilation-config '{"mode": 3}'
