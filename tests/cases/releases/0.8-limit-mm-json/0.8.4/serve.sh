#!/bin/sh
# 0.5.5 - 0.8.4 read --limit-mm-per-prompt with nullable_kvs (image=16,video=2 only);
# 0.8.5 takes JSON too (optional_type(json.loads), vllm/engine/arg_utils.py:58)
vllm serve llava-hf/llava-1.5-7b-hf --limit-mm-per-prompt '{"image": 2}'
