#!/bin/sh
# VL375 proton-hatchet-needs-tree-data: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL375-proton-hatchet-needs-tree-data.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_output_format": "hatchet"}'
