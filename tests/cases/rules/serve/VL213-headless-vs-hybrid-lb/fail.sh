#!/bin/sh
# VL213 headless-vs-hybrid-lb: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/serve/VL213-headless-vs-hybrid-lb.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-hybrid-lb --headless
