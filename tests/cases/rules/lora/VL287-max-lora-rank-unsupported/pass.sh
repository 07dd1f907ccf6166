#!/bin/sh
# VL287 max-lora-rank-unsupported: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/lora/VL287-max-lora-rank-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-lora-rank 64
