#!/bin/sh
# VL393 spec-max-model-len-above-target: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL393-spec-max-model-len-above-target.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 2048 --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 3, "max_model_len": 4096}'
