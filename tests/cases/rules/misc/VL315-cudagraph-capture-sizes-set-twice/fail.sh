#!/bin/sh
# VL315 cudagraph-capture-sizes-set-twice: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL315-cudagraph-capture-sizes-set-twice.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --cudagraph-capture-sizes 1 2 4 8 --compilation-config.cudagraph_capture_sizes [1,2,4]
