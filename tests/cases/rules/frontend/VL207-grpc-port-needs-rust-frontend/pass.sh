#!/bin/sh
# VL207 grpc-port-needs-rust-frontend: a launch vLLM 0.32.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/frontend/VL207-grpc-port-needs-rust-frontend.json)
VLLM_USE_RUST_FRONTEND=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051
