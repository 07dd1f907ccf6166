#!/bin/sh
# VL322 hc-sp-needs-pp1: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL322-hc-sp-needs-pp1.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 4 -pp 2 --enable-hc-sp
