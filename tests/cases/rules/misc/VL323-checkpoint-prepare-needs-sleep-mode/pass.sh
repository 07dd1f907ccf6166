#!/bin/sh
# VL323 checkpoint-prepare-needs-sleep-mode: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL323-checkpoint-prepare-needs-sleep-mode.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --checkpoint-prepare-on-startup --enable-sleep-mode
