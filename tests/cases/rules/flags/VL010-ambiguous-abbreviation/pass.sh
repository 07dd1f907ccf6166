#!/bin/sh
# VL010 ambiguous-abbreviation: a launch vLLM 0.33.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL010-ambiguous-abbreviation.json)
vllm serve meta-llama/Llama-3.1-8B --max-num-seqs 64
