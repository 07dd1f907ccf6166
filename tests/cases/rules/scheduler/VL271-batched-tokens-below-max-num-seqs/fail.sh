#!/bin/sh
# VL271 batched-tokens-below-max-num-seqs: a launch vLLM 0.8.5 refuses (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL271-batched-tokens-below-max-num-seqs.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-seqs 512 --max-num-batched-tokens 256
