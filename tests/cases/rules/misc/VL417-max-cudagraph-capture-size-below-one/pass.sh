#!/bin/sh
# VL417 max-cudagraph-capture-size-below-one: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL417-max-cudagraph-capture-size-below-one.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager --compilation-config '{"max_cudagraph_capture_size": 0}'
