#!/bin/sh
# VL341 headless-needs-v1-engine: a launch vLLM 0.9.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL341-headless-needs-v1-engine.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -dp 2 --headless
