#!/bin/sh
# VL427 dcp-interleave-vs-block-size: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL427-dcp-interleave-vs-block-size.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 -dcp 2 --block-size 16 --cp-kv-cache-interleave-size 32
