#!/bin/sh
# VL275 long-partial-prefills-above-partial-prefills: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL275-long-partial-prefills-above-partial-prefills.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-chunked-prefill --max-num-partial-prefills 4 --max-long-partial-prefills 2
