#!/bin/sh
# VL345 logits-processor-pattern-unsupported: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL345-logits-processor-pattern-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --logits-processor-pattern 'custom.*'
