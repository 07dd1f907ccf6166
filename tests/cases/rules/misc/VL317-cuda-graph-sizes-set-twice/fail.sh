#!/bin/sh
# VL317 cuda-graph-sizes-set-twice: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL317-cuda-graph-sizes-set-twice.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --cuda-graph-sizes 1 2 4 --compilation-config.cudagraph_capture_sizes [1,2,4]
