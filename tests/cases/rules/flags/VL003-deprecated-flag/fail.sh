#!/bin/sh
# VL003 deprecated-flag: a launch vLLM 0.9.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL003-deprecated-flag.json)
vllm serve Qwen/Qwen3-8B --enable-reasoning --reasoning-parser deepseek_r1
