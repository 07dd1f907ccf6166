#!/bin/sh
# VL346 concurrent-partial-prefill-unsupported: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL346-concurrent-partial-prefill-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-partial-prefills 1
