#!/bin/sh
# Written for vllm-lint's tests: server arguments to the vllm CLI without `serve` (refused),
# then with it (starts); `vllm --version` is no launch.
vllm --model Qwen/Qwen3-8B --port 8000
vllm serve Qwen/Qwen3-8B --port 8000
vllm --version
