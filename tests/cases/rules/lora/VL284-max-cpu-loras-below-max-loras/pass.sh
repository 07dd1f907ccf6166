#!/bin/sh
# VL284 max-cpu-loras-below-max-loras: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL284-max-cpu-loras-below-max-loras.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-loras 4 --max-cpu-loras 8
