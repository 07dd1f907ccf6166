#!/bin/sh
# VL274 partial-prefills-need-chunked-prefill: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL274-partial-prefills-need-chunked-prefill.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-partial-prefills 2 --enable-chunked-prefill
