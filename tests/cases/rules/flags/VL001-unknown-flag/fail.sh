#!/bin/sh
# VL001 unknown-flag: a launch vLLM 0.33.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL001-unknown-flag.json)
vllm serve meta-llama/Llama-3.1-8B --enable-prefix-cashing
