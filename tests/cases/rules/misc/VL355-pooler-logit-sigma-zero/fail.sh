#!/bin/sh
# VL355 pooler-logit-sigma-zero: a launch vLLM 0.20.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL355-pooler-logit-sigma-zero.json)
vllm serve Qwen/Qwen3-8B --pooler-config '{"logit_sigma": 0}'
