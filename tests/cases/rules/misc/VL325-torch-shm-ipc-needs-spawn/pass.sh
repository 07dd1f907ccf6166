#!/bin/sh
# VL325 torch-shm-ipc-needs-spawn: a launch vLLM 0.26.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/misc/VL325-torch-shm-ipc-needs-spawn.json)
VLLM_WORKER_MULTIPROC_METHOD=spawn vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-tensor-ipc torch_shm
