#!/bin/sh
# --max-paddings is gone from vLLM 0.4.0 (last in 0.3.3: vllm/engine/arg_utils.py:200)
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --max-paddings 256
