#!/bin/sh
# VL283 async-scheduling-vs-spec-decode: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL283-async-scheduling-vs-spec-decode.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}'
