#!/bin/sh
# VL318 offload-num-in-group-above-group-size: a launch vLLM 0.17.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL318-offload-num-in-group-above-group-size.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --offload-backend prefetch
