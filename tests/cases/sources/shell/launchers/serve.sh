#!/bin/bash
# Written for vllm-lint's tests (no public file with these launchers had a license that allows
# redistribution): each launcher's options that take a value, from its documentation
# (schemas/launchers.json cites it), and the server started after them.
srun -p gpu --cpus-per-task 8 --gres=gpu:2 -N 1 vllm serve m1 --port 8001
salloc -N1 --time 01:00:00 vllm serve m2 --port 8002
sbatch --partition gpu -J serve --wrap "vllm serve m3 --port 8003"
mpirun -np 2 --mca btl tcp,self -x NCCL_DEBUG=INFO vllm serve m4 --port 8004
torchrun --nproc-per-node 8 --master-port 29500 -m vllm.entrypoints.openai.api_server --model m5
accelerate launch --num_processes 2 --mixed-precision bf16 -m vllm.entrypoints.openai.api_server --model m6
deepspeed --num_gpus 2 --module vllm.entrypoints.openai.api_server --model m7
nsys profile -t cuda,nvtx -o /tmp/prof --force-overwrite true vllm serve m8 --port 8008
pm2 start --name qwen "vllm serve m9 --port 8009"
numactl --cpunodebind 0 --membind 0 vllm serve m10
taskset -c 0-15 vllm serve m11
stdbuf -oL -e0 vllm serve m12
timeout -s INT 3600 vllm serve m13
uv run --with flashinfer --python 3.12 vllm serve m14
uv run -m vllm.entrypoints.openai.api_server --model m15
conda run -n vllm --no-capture-output vllm serve m16
poetry run -C backend vllm serve m17
pixi run -e cuda vllm serve m18
apptainer exec --nv --bind /data:/data vllm.sif vllm serve m19
singularity run --nv vllm-openai_v0.10.2.sif --model m20
docker run --gpus all -p 8000:8000 -e HF_TOKEN=x vllm/vllm-openai:v0.28.0 --model m21
podman run --device nvidia.com/gpu=all quay.io/x/cuda:12 vllm serve m22
kubectl run vllm --image=vllm/vllm-openai:v0.30.0 --restart=Never -- --model m23
kubectl run vllm --image=python:3.12 --command -- vllm serve m24
env CUDA_VISIBLE_DEVICES=0 nohup nice -n 5 vllm serve m25 &
ray job submit --address http://head:8265 --no-wait -- vllm serve m26
uvx vllm@0.9.2 serve m27
docker exec -d worker bash -c "vllm serve m28 --port 8028"
hatch run vllm serve m29
pdm run -p backend vllm serve m30
rye run --pyproject backend/pyproject.toml vllm serve m31
pipenv run --python 3.12 vllm serve m32
nohup setsid vllm serve m33 > serve.log 2>&1 &
setsid -f nohup vllm serve m34 &
echo m35 | xargs -I {} vllm serve {} --port 8035
cat models.txt | xargs -n 1 -P 2 vllm serve --port 8036
parallel -j 2 --link vllm serve {1} --max-num-seqs {2} --port 8037 ::: m37 m38 ::: 8 16
