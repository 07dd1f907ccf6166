#!/bin/sh
# Written for vllm-lint's tests: commands other than `vllm serve` that build vLLM's engine.
# `vllm run-batch` is first in 0.9.1 (vllm/entrypoints/cli/run_batch.py:23); 0.9.0 refuses it.
uvx vllm@0.9.0 run-batch -i batch.jsonl -o results.jsonl --model facebook/opt-125m
uvx vllm@0.9.1 run-batch -i batch.jsonl -o results.jsonl --model facebook/opt-125m
# `vllm bench latency` takes the engine's flags: a removed one is refused as by `vllm serve`,
# and a server-only flag (`--port`) is not one of them
uvx vllm@0.30.0 bench latency --model facebook/opt-125m --calculate-kv-scales
uvx vllm@0.30.0 bench latency --model facebook/opt-125m --port 8000
