#!/bin/sh
# VL336 pooling-type-vs-seq-pooling-type: a launch vLLM 0.14.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL336-pooling-type-vs-seq-pooling-type.json)
vllm serve Qwen/Qwen3-8B --pooler-config '{"seq_pooling_type": "MEAN"}'
