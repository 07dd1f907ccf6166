#!/bin/sh
# VL361 reasoning-effort-map-not-a-map: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL361-reasoning-effort-map-not-a-map.json)
vllm serve Qwen/Qwen3-8B --reasoning-effort-map '{"high": "x"}'
