#!/bin/bash
# Written for vllm-lint's tests: shell forms that build the command before running it.
: "${PORT:=8000}"
MODEL=${MODEL:-nvidia/NVIDIA-Nemotron-Nano-9B-v2}
CMD="vllm serve $MODEL --port 9000"
if [ -n "$TP" ]; then
  CMD="$CMD --tensor-parallel-size $TP"
fi
eval "$CMD"
ARGS=(--max-model-len 8192)
ARGS+=(--gpu-memory-utilization 0.9)
[ -n "$DEBUG" ] && ARGS+=(--enforce-eager)
vllm serve Qwen/Qwen3-8B "${ARGS[@]}"
serve() {
  vllm serve "$1" --port "$2"
}
serve Qwen/Qwen3-8B 8100
PROFILER=""
if [ "$PROFILE" = 1 ]; then
  PROFILER="nsys profile -o /tmp/p"
fi
$PROFILER vllm serve Qwen/Qwen3-8B --port 8200
bash -c "$CMD --max-num-seqs 8"
vllm --model Qwen/Qwen3-8B --port 8300
python -m vllm.entrypoints.api_server --model facebook/opt-125m
