#!/bin/sh
# VL367 direct-reload-vs-offload: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL367-direct-reload-vs-offload.json)
VLLM_RELOAD_MODE=direct vllm serve meta-llama/Llama-3.1-8B-Instruct --cpu-offload-gb 4
