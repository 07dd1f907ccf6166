#!/bin/sh
# VL358 decoder-replay-capture-sizes-positive: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL358-decoder-replay-capture-sizes-positive.json)
vllm serve Qwen/Qwen3-8B --compilation-config '{"decoder_replay_cudagraph_capture_sizes": [1, 8]}'
