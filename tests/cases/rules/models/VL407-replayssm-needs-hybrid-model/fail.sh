#!/bin/sh
# VL407 replayssm-needs-hybrid-model: a launch vLLM 0.27.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/models/VL407-replayssm-needs-hybrid-model.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --use-replayssm
