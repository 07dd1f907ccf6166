#!/bin/sh
# VL313 attention-backend-set-twice: a launch vLLM 0.13.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL313-attention-backend-set-twice.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --attention-backend FLASH_ATTN
