#!/bin/sh
# VL282 async-scheduling-vs-pp: a launch vLLM 0.10.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL282-async-scheduling-vs-pp.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling -pp 2
