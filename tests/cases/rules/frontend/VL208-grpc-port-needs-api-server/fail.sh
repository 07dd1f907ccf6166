#!/bin/sh
# VL208 grpc-port-needs-api-server: a launch vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL208-grpc-port-needs-api-server.json)
VLLM_USE_RUST_FRONTEND=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051 --headless
