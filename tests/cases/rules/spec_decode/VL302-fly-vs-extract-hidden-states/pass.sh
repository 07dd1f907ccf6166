#!/bin/sh
# VL302 fly-vs-extract-hidden-states: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL302-fly-vs-extract-hidden-states.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "extract_hidden_states", "num_speculative_tokens": 4}'
