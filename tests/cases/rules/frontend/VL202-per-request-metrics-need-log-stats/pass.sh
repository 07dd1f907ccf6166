#!/bin/sh
# VL202 per-request-metrics-need-log-stats: a launch vLLM 0.25.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL202-per-request-metrics-need-log-stats.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-per-request-metrics
