#!/bin/sh
# VL004 bad-value-type: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL004-bad-value-type.json)
vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size two
