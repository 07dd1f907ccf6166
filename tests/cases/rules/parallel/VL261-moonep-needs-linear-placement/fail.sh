#!/bin/sh
# VL261 moonep-needs-linear-placement: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL261-moonep-needs-linear-placement.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 2 -ep --all2all-backend moonep --expert-placement-strategy round_robin
