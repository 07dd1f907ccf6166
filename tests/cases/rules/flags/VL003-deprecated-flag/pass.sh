#!/bin/sh
# VL003 deprecated-flag: a launch vLLM 0.9.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL003-deprecated-flag.json)
vllm serve Qwen/Qwen3-8B --reasoning-parser deepseek_r1
