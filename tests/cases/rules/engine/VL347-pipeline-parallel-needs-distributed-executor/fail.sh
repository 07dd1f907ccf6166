#!/bin/sh
# VL347 pipeline-parallel-needs-distributed-executor: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL347-pipeline-parallel-needs-distributed-executor.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -pp 2 --distributed-executor-backend uni
