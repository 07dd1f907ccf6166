#!/bin/bash
# Written for vllm-lint's tests.
MODEL=${MODEL:-Qwen/Qwen3-8B}
exec vllm serve "$MODEL" --num-scheduler-steps 8 "$@"
