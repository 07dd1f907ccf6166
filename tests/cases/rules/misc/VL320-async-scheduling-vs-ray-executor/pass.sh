#!/bin/sh
# VL320 async-scheduling-vs-ray-executor: a launch vLLM 0.19.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL320-async-scheduling-vs-ray-executor.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --async-scheduling --distributed-executor-backend mp
