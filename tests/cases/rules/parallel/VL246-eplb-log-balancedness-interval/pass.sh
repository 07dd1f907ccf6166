#!/bin/sh
# VL246 eplb-log-balancedness-interval: a launch vLLM 0.14.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL246-eplb-log-balancedness-interval.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -ep --enable-eplb --eplb-config '{"log_balancedness": true, "log_balancedness_interval": 10}'
