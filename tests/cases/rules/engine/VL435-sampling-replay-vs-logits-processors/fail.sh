#!/bin/sh
# VL435 sampling-replay-vs-logits-processors: a launch vLLM 0.28.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/engine/VL435-sampling-replay-vs-logits-processors.json)
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors vllm.v1.sample.logits_processor:MinTokensLogitsProcessor
