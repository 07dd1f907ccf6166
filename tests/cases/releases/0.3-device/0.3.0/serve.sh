#!/bin/sh
# --device is new in vLLM 0.3.1 (vllm/engine/arg_utils.py)
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --device cuda
