#!/bin/sh
# VL503 world-size-exceeds-node-gpus: a launch vLLM 0.11.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL503-world-size-exceeds-node-gpus.json)
CUDA_VISIBLE_DEVICES=0,1 vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4
