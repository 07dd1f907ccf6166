#!/bin/sh
# VL312 structured-outputs-additional-properties-needs-guidance: a launch vLLM 0.9.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL312-structured-outputs-additional-properties-needs-guidance.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --guided-decoding-backend guidance --guided-decoding-disable-additional-properties
