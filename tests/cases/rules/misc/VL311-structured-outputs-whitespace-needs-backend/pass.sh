#!/bin/sh
# VL311 structured-outputs-whitespace-needs-backend: a launch vLLM 0.9.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL311-structured-outputs-whitespace-needs-backend.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --guided-decoding-backend xgrammar --guided-decoding-disable-any-whitespace
