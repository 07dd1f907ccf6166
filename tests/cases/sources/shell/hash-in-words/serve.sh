#!/bin/bash
# Written for vllm-lint's tests: `#` starts a comment only where a word starts; `{#}` and `{%}`
# are GNU parallel's job number and slot, not an unclosed Jinja comment (which hid the rest of
# the file before).
parallel vllm serve {} --port 80{#} --tensor-parallel-size 0 ::: org/a org/b
parallel -j 2 vllm serve {} --port 90{%} --max-num-seqs x ::: org/c
echo build#42; vllm serve org/d --port 8000#1 --no-such-flag   # a real comment
vllm serve org/e --served-model-name e#1 --max-model-len 4096  # the rest of the file is read
