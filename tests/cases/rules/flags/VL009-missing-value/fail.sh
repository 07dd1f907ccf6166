#!/bin/sh
# VL009 missing-value: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL009-missing-value.json)
vllm serve meta-llama/Llama-3.1-8B --max-model-len
