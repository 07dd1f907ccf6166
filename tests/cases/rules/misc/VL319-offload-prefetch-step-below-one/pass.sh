#!/bin/sh
# VL319 offload-prefetch-step-below-one: a launch vLLM 0.17.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL319-offload-prefetch-step-below-one.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --offload-group-size 8 --offload-prefetch-step 1
