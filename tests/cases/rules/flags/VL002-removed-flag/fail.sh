#!/bin/sh
# VL002 removed-flag: a launch vLLM 0.8.3 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL002-removed-flag.json)
vllm serve meta-llama/Llama-3.1-8B --speculative-model meta-llama/Llama-3.2-1B --num-speculative-tokens 5
