#!/bin/sh
# VL372 proton-graph-attribution-needs-tree: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL372-proton-graph-attribution-needs-tree.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true, "proton_data": "trace"}'
