#!/bin/bash
# Written for vllm-lint's tests: lines that mention vLLM and start no server.
echo "vllm serve Qwen/Qwen3-8B --port 8000"
printf '%s\n' "run: vllm serve m"
# vllm serve Qwen/Qwen3-8B
vllm --version
vllm serve --help
vllm bench serve --model m
pip install vllm==0.10.2
pkill -f "vllm serve"
cat <<EOF2
vllm serve m --port 8000
EOF2
sbatch serve.sbatch
srun --help
timeout 900 bash -c 'until curl -sf localhost:8000/health; do sleep 5; done'
lm_eval --model vllm --model_args pretrained=m
