#!/bin/sh
# VL294 proton-with-cuda-graphs-needs-attribution: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL294-proton-with-cuda-graphs-needs-attribution.json)
vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
