#!/bin/sh
# VL310 detailed-traces-need-otlp-endpoint: a launch vLLM 0.11.2 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL310-detailed-traces-need-otlp-endpoint.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --collect-detailed-traces all --otlp-traces-endpoint grpc://otel-collector:4317
