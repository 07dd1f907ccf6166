#!/bin/sh
# VL344 draft-model-spec-decode-unsupported: a launch vLLM 0.10.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL344-draft-model-spec-decode-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}'
