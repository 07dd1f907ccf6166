#!/bin/sh
# VL244 multi-port-ssl-pair: a launch vLLM 0.23.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/data_parallel/VL244-multi-port-ssl-pair.json)
vllm serve Qwen/Qwen3-30B-A3B -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --ssl-keyfile /k.pem
