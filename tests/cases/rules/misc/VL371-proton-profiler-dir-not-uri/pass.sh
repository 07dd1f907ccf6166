#!/bin/sh
# VL371 proton-profiler-dir-not-uri: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL371-proton-profiler-dir-not-uri.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
