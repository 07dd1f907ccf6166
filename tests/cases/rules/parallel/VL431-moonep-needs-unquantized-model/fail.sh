#!/bin/sh
# VL431 moonep-needs-unquantized-model: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL431-moonep-needs-unquantized-model.json)
vllm serve Qwen/Qwen3-30B-A3B --all2all-backend moonep --enable-expert-parallel --tensor-parallel-size 2 --quantization fp8
