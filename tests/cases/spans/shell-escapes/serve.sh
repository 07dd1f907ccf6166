#!/bin/sh
# Double quotes with escaped quotes, over two lines; then single quotes.
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --speculative-config "{\"method\": \"ngram\", \"num_speculative_tokens\": 3,
    \"tensor_parallel_size\": 2}" \
  --compilation-config '{"cudagraph_mode": "FULL", "modee": 3}'
