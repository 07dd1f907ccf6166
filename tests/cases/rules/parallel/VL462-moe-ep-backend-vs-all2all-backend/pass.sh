#!/bin/sh
# VL462 moe-ep-backend-vs-all2all-backend: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL462-moe-ep-backend-vs-all2all-backend.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --moe-backend flashinfer_moe_ep_cutedsl
