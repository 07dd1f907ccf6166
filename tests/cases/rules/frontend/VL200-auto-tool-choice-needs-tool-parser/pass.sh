#!/bin/sh
# VL200 auto-tool-choice-needs-tool-parser: a launch vLLM 0.8.5 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL200-auto-tool-choice-needs-tool-parser.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-auto-tool-choice --tool-call-parser llama3_json
