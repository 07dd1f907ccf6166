#!/bin/sh
# VL327 hisparse-no-dcp: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL327-hisparse-no-dcp.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' -tp 8 -dcp 2
