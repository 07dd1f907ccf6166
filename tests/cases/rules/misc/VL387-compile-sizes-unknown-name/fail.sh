#!/bin/sh
# VL387 compile-sizes-unknown-name: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL387-compile-sizes-unknown-name.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"compile_sizes": [1, "all"]}'
