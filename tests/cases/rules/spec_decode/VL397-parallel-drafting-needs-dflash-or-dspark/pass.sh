#!/bin/sh
# VL397 parallel-drafting-needs-dflash-or-dspark: a launch vLLM 0.34.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/spec_decode/VL397-parallel-drafting-needs-dflash-or-dspark.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "parallel_drafting": false}'
