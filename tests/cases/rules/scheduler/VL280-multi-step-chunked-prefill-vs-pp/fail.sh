#!/bin/sh
# VL280 multi-step-chunked-prefill-vs-pp: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL280-multi-step-chunked-prefill-vs-pp.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-scheduler-steps 8 --enable-chunked-prefill -pp 2
