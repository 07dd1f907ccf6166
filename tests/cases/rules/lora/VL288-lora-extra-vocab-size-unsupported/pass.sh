#!/bin/sh
# VL288 lora-extra-vocab-size-unsupported: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL288-lora-extra-vocab-size-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --lora-extra-vocab-size 512
