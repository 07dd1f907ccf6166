#!/bin/sh
# VL021 flag-without-its-switch: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL021-flag-without-its-switch.json)
vllm serve Qwen/Qwen3-8B --enable-lora --max-loras 4
