#!/bin/sh
# VL421 proton-pc-sampling-needs-eager: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL421-proton-pc-sampling-needs-eager.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_mode": "pcsampling"}'
