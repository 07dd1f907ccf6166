#!/bin/sh
# VL438 ec-manager-config-needs-class: a launch vLLM 0.28.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/kv_transfer/VL438-ec-manager-config-needs-class.json)
vllm serve meta-llama/Llama-3.1-8B-Instruct --ec-manager-config '{"manager_config":{}}'
