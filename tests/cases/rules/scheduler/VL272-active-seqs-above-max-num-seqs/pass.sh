#!/bin/sh
# VL272 active-seqs-above-max-num-seqs: a launch vLLM 0.31.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/scheduler/VL272-active-seqs-above-max-num-seqs.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num-seqs 256 --max-num-active-seqs 128
