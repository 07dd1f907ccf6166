#!/bin/sh
# VL362 reasoning-effort-map-unknown-effort: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL362-reasoning-effort-map-unknown-effort.json)
vllm serve Qwen/Qwen3-8B --reasoning-effort-map '{"high": "x", "max": "y"}'
