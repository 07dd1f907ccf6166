#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:a100:4
# Written for vllm-lint's tests: GPU grants of Slurm, docker run and CUDA_VISIBLE_DEVICES.
srun vllm serve Qwen/Qwen3-32B -tp 8
srun vllm serve Qwen/Qwen3-32B -tp 4
srun vllm serve Qwen/Qwen3-32B -tp 8 --distributed-executor-backend ray
docker run --gpus '"device=0,1"' vllm/vllm-openai:v0.30.0 --model Qwen/Qwen3-32B -tp 4
docker run --gpus all vllm/vllm-openai:v0.30.0 --model Qwen/Qwen3-32B -tp 8
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B -tp 2
