#!/bin/sh
# VL314 flashinfer-autotune-set-twice: a launch vLLM 0.16.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL314-flashinfer-autotune-set-twice.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-flashinfer-autotune
