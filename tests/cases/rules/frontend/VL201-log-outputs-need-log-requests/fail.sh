#!/bin/sh
# VL201 log-outputs-need-log-requests: a launch vLLM 0.11.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL201-log-outputs-need-log-requests.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-log-outputs
