#!/bin/sh
# VL328 hisparse-vs-full-cudagraphs: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL328-hisparse-vs-full-cudagraphs.json)
vllm serve deepseek-ai/DeepSeek-V3.2-Exp --attention-config '{"hisparse_config": {}}' -cc.cudagraph_mode=FULL_AND_PIECEWISE
