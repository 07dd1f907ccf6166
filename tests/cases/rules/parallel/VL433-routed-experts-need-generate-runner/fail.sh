#!/bin/sh
# VL433 routed-experts-need-generate-runner: a launch vLLM 0.31.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/parallel/VL433-routed-experts-need-generate-runner.json)
vllm serve Qwen/Qwen3-30B-A3B --enable-return-routed-experts --runner pooling
