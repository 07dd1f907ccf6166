#!/bin/sh
# VL013 spec-shortcut-conflict: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL013-spec-shortcut-conflict.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3}' --spec-method ngram
