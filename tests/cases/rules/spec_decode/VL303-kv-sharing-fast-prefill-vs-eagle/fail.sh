#!/bin/sh
# VL303 kv-sharing-fast-prefill-vs-eagle: a launch vLLM 0.10.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL303-kv-sharing-fast-prefill-vs-eagle.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-sharing-fast-prefill --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
