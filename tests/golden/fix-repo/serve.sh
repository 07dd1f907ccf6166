#!/usr/bin/env bash
# Serve Llama 3.1 8B with a draft model (written for vLLM 0.8.2 and 0.12)
set -euo pipefail
vllm serve meta-llama/Llama-3.1-8B \
    --tensor-parallel-size 2 \
    --max-num-seqs 64 \
    --runner generate \
    --mm-processor-cache-gb=0 \
    --speculative-config.num_speculative_tokens 5 \
    --speculative-config.model meta-llama/Llama-3.2-1B
echo "vLLM started"
