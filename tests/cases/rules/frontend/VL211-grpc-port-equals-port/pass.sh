#!/bin/sh
# VL211 grpc-port-equals-port: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL211-grpc-port-equals-port.json)
VLLM_USE_RUST_FRONTEND=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 9000 --grpc-port 50051
