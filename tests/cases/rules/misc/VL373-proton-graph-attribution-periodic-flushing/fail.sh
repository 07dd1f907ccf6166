#!/bin/sh
# VL373 proton-graph-attribution-periodic-flushing: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL373-proton-graph-attribution-periodic-flushing.json)
vllm serve Qwen/Qwen3-8B --enforce-eager --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true, "proton_mode": "periodic_flushing:format=hatchet_msgpack"}'
