#!/bin/sh
# VL418 cudagraph-capture-sizes-empty: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL418-cudagraph-capture-sizes-empty.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"cudagraph_capture_sizes": []}'
