#!/bin/sh
# VL276 partial-prefills-below-one: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL276-partial-prefills-below-one.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-partial-prefills 1
