#!/bin/sh
# VL443 watermark-key-exceeds-64-bits: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL443-watermark-key-exceeds-64-bits.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --watermark-config '{"key": 18446744073709551615}'
