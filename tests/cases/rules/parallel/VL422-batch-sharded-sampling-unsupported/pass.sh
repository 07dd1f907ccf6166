#!/bin/sh
# VL422 batch-sharded-sampling-unsupported: a launch vLLM 0.29.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL422-batch-sharded-sampling-unsupported.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --enable-batch-sharded-sampling
