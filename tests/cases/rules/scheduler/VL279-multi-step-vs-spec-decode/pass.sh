#!/bin/sh
# VL279 multi-step-vs-spec-decode: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL279-multi-step-vs-spec-decode.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-scheduler-steps 8
