#!/bin/sh
# VL333 profiler-dir-needs-torch: a launch vLLM 0.16.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL333-profiler-dir-needs-torch.json)
vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch", "torch_profiler_dir": "/tmp/traces"}'
