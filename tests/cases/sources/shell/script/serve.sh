#!/usr/bin/env bash
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-8B}
ARGS=(--max-model-len 8192 --gpu-memory-utilization 0.9)
export VLLM_LOGGING_LEVEL=INFO
echo "starting vllm serve $MODEL"
exec vllm serve "$MODEL" "${ARGS[@]}" --port 8000
