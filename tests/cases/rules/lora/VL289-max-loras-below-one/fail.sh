#!/bin/sh
# VL289 max-loras-below-one: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL289-max-loras-below-one.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-loras 0
