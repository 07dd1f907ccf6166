#!/bin/sh
# VL281 async-scheduling-vs-uni-executor: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL281-async-scheduling-vs-uni-executor.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --distributed-executor-backend uni
