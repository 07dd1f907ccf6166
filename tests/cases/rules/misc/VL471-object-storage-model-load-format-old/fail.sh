#!/bin/sh
# VL471 object-storage-model-load-format-old: a launch vLLM 0.11.2 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL471-object-storage-model-load-format-old.json)
vllm serve s3://my-bucket/Llama-3.1-8B-Instruct --load-format safetensors
