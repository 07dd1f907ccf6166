#!/bin/sh
# VL283 async-scheduling-vs-spec-decode: a launch vLLM 0.10.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL283-async-scheduling-vs-spec-decode.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling
