#!/bin/sh
# VL008 abbreviated-flag: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL008-abbreviated-flag.json)
vllm serve meta-llama/Llama-3.1-8B --tensor-parallel 2
