#!/bin/sh
# 0.8.5 - 0.9.2 read a value that is not {...} as KEY=VALUE pairs (nullable_kvs, deprecated
# "will be removed in v0.10.0"); from 0.10.0 the value must be JSON
vllm serve llava-hf/llava-1.5-7b-hf --limit-mm-per-prompt image=2
