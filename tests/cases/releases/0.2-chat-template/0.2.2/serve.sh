#!/bin/sh
# --chat-template is new in vLLM 0.2.3 (vllm/entrypoints/openai/api_server.py)
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --chat-template ./template.jinja
