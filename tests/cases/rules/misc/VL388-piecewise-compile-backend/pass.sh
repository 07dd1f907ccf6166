#!/bin/sh
# VL388 piecewise-compile-backend: a launch vLLM 0.11.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL388-piecewise-compile-backend.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"mode": 3, "backend": "inductor"}'
