#!/bin/sh
# VL209 grpc-port-vs-multi-port-lb: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL209-grpc-port-vs-multi-port-lb.json)
VLLM_USE_RUST_FRONTEND=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051 -dp 2
