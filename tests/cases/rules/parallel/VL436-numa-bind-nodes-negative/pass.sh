#!/bin/sh
# VL436 numa-bind-nodes-negative: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL436-numa-bind-nodes-negative.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --numa-bind --numa-bind-nodes 0 1
