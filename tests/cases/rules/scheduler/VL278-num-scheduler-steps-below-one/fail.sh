#!/bin/sh
# VL278 num-scheduler-steps-below-one: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL278-num-scheduler-steps-below-one.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-scheduler-steps 0
