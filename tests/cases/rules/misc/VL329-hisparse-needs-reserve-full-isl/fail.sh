#!/bin/sh
# VL329 hisparse-needs-reserve-full-isl: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL329-hisparse-needs-reserve-full-isl.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' --no-scheduler-reserve-full-isl
