#!/bin/sh
# VL364 ir-op-priority-set-twice: a launch vLLM 0.20.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL364-ir-op-priority-set-twice.json)
vllm serve Qwen/Qwen3-8B --ir-op-priority '{"rms_norm": ["native"]}' --kernel-config '{"ir_op_priority": {"rms_norm": []}}'
