#!/bin/sh
# VL374 proton-chrome-trace-needs-trace-data: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL374-proton-chrome-trace-needs-trace-data.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_output_format": "chrome_trace"}'
