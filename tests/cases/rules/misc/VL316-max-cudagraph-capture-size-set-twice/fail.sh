#!/bin/sh
# VL316 max-cudagraph-capture-size-set-twice: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL316-max-cudagraph-capture-size-set-twice.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-cudagraph-capture-size 256 --compilation-config.max_cudagraph_capture_size 128
