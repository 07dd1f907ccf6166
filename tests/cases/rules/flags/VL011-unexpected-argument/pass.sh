#!/bin/sh
# VL011 unexpected-argument: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL011-unexpected-argument.json)
vllm serve Qwen/Qwen3-8B
