#!/bin/sh
# VL250 dcp-a2a-needs-dcp: a launch vLLM 0.18.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL250-dcp-a2a-needs-dcp.json)
vllm serve deepseek-ai/DeepSeek-V3 -tp 2 -dcp 2 --dcp-comm-backend a2a
