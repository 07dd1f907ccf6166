#!/bin/sh
# VL472 object-storage-model-load-format: a launch vLLM 0.22.1 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL472-object-storage-model-load-format.json)
vllm serve s3://my-bucket/Llama-3.1-8B-Instruct --load-format safetensors
