#!/bin/sh
# --worker-use-ray is gone from vLLM 0.7.0 (last in 0.6.6.post1: vllm/engine/arg_utils.py:403)
vllm serve facebook/opt-125m --worker-use-ray
