#!/bin/sh
# --enable-auto-tool-choice and --tool-call-parser are new in vLLM 0.6.0
vllm serve NousResearch/Hermes-2-Pro-Llama-3-8B --enable-auto-tool-choice --tool-call-parser hermes
