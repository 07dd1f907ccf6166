#!/bin/sh
# VL340 v1-forced-with-unsupported-feature: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL340-v1-forced-with-unsupported-feature.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --preemption-mode swap
