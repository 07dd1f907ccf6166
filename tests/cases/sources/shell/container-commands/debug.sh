#!/usr/bin/env bash
# A server image run for something else than its server, and servers started through a shell.
IMAGE=vllm/vllm-openai:v0.10.2

# a shell, a sleep, a tail or python as the command: not the server's arguments
docker run --gpus all -it --rm "$IMAGE" /bin/bash
docker run -d --name keepalive --gpus all "$IMAGE" sleep infinity
docker run -d "$IMAGE" tail -f /dev/null
docker run --rm "$IMAGE" python3 -c "import vllm; print(vllm.__version__)"

# a shell that starts the server: the server is the launch
docker run --gpus all --entrypoint /bin/bash "$IMAGE" -c "vllm serve Qwen/Qwen3-8B --max-model-len 8192"
docker run --gpus all "$IMAGE" bash -lc "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2"

# the image's entrypoint given the server's arguments
docker run --gpus all -p 8000:8000 "$IMAGE" --model Qwen/Qwen3-8B --max-model-len 4096
