#!/bin/sh
# VL270 batched-tokens-below-max-model-len: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL270-batched-tokens-below-max-model-len.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --max-num-batched-tokens 4096 --no-enable-chunked-prefill
