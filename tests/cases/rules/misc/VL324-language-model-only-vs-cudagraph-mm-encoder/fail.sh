#!/bin/sh
# VL324 language-model-only-vs-cudagraph-mm-encoder: a launch vLLM 0.29.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL324-language-model-only-vs-cudagraph-mm-encoder.json)
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --language-model-only -cc.cudagraph_mm_encoder=true
