#!/bin/sh
# VL344 draft-model-spec-decode-unsupported: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL344-draft-model-spec-decode-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "draft_model", "model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 4}'
