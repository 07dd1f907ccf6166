#!/bin/sh
# VL245 async-eplb-vs-nccl-communicator: a launch vLLM 0.24.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL245-async-eplb-vs-nccl-communicator.json)
vllm serve Qwen/Qwen3-30B-A3B -tp 2 -ep --enable-eplb --eplb-config '{"use_async": true, "communicator": "torch_gloo"}'
