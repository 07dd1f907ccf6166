#!/bin/sh
# VL439 nvfp4-ds-mla-kv-cache-vs-dcp: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL439-nvfp4-ds-mla-kv-cache-vs-dcp.json)
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 4 --decode-context-parallel-size 2 --kv-cache-dtype nvfp4_ds_mla
