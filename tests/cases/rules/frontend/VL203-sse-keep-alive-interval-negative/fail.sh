#!/bin/sh
# VL203 sse-keep-alive-interval-negative: a launch vLLM 0.29.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL203-sse-keep-alive-interval-negative.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --sse-keep-alive-interval -5
