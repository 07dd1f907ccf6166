#!/bin/sh
# VL392 adaptive-verification-vs-local-argmax: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL392-adaptive-verification-vs-local-argmax.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "use_local_argmax_reduction": true}'
