#!/bin/sh
# --enable-lora is new in vLLM 0.3.0 (vllm/engine/arg_utils.py)
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --enable-lora
