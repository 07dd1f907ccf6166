#!/bin/sh
# VL326 hisparse-no-pipeline-parallel: a launch vLLM 0.30.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL326-hisparse-no-pipeline-parallel.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' -tp 8
