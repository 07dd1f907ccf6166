#!/bin/sh
# VL330 hisparse-needs-hybrid-kv-cache-manager: a launch vLLM 0.30.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL330-hisparse-needs-hybrid-kv-cache-manager.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' --disable-hybrid-kv-cache-manager
