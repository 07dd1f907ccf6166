#!/bin/sh
# VL204 reasoning-needs-reasoning-parser: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL204-reasoning-needs-reasoning-parser.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-reasoning --reasoning-parser deepseek_r1
