#!/bin/sh
# VL468 pooler-config-normalize-removed: a launch vLLM 0.26.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL468-pooler-config-normalize-removed.json)
vllm serve BAAI/bge-base-en-v1.5 --runner pooling --pooler-config '{"use_activation": true}'
