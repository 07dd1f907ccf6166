#!/bin/sh
# VL214 headless-needs-local-engines: a launch vLLM 0.9.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL214-headless-needs-local-engines.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 0 --headless
