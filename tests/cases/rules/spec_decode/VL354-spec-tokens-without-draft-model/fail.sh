#!/bin/sh
# VL354 spec-tokens-without-draft-model: a launch vLLM 0.11.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL354-spec-tokens-without-draft-model.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.num_speculative_tokens 5
