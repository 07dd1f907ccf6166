#!/bin/sh
# --mm-cache-preprocessor exists in vLLM 0.6.5 only (0.6.6: --disable-mm-preprocessor-cache)
vllm serve llava-hf/llava-1.5-7b-hf --mm-cache-preprocessor
