#!/bin/sh
# VL337 pooling-type-vs-tok-pooling-type: a launch vLLM 0.14.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL337-pooling-type-vs-tok-pooling-type.json)
vllm serve Qwen/Qwen3-8B --pooler-config '{"pooling_type": "MEAN", "tok_pooling_type": "ALL"}'
