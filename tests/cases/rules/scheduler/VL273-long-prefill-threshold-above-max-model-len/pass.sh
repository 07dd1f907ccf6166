#!/bin/sh
# VL273 long-prefill-threshold-above-max-model-len: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL273-long-prefill-threshold-above-max-model-len.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-chunked-prefill --max-num-partial-prefills 2 --max-model-len 4096 --long-prefill-token-threshold 1024
