#!/bin/sh
# VL467 hisparse-needs-hisparse-connector: a launch vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL467-hisparse-needs-hisparse-connector.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}'
