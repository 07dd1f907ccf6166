#!/bin/sh
# VL419 max-cudagraph-capture-size-vs-capture-sizes: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL419-max-cudagraph-capture-size-vs-capture-sizes.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"cudagraph_capture_sizes": [1, 2, 4, 8], "max_cudagraph_capture_size": 16}'
