#!/usr/bin/env bash
# GNU parallel runs its command line through a shell: a command quoted as one word is a
# command line, its placeholders unknown; xargs runs `sh -c SCRIPT`, whose {} is unknown too.
parallel "vllm serve {} --tensor-parallel-size 2 --port 800{#}" ::: m1 m2
parallel -j2 'vllm serve {} --max-model-len 4096 --gpu-memory-utilisation 0.9' ::: m1 m2
parallel --tag "vllm serve --max-num-seqs 64" ::: Qwen/Qwen3-8B
ls models | xargs -I{} sh -c 'vllm serve {} --max-model-len 4096 > {}.log 2>&1'
ls models | xargs -I % bash -c "vllm serve % --swap-space 4"

# not launches: a dry run prints the jobs; a quoted word with no space is one program name
parallel --dry-run "vllm serve {} --port 8000" ::: m1
parallel "echo vllm serve {}" ::: m1
