#!/bin/sh
# VL205 prompt-embeds-vs-prompt-adapter: a launch vLLM 0.9.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL205-prompt-embeds-vs-prompt-adapter.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-prompt-embeds
