"""Start a vLLM server for the evaluation.

Usage:
    CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --max-model-len 4096

Prose that mentions `vllm serve` is not a launch.
"""

import os
import shlex
import subprocess
import sys

MODEL = "Qwen/Qwen3-0.6B"


def start(port: int, tp: int, extra: list[str]) -> subprocess.Popen:
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--port",
        str(port),
        "--tensor-parallel-size",
        str(tp),
    ]
    if tp > 1:
        cmd.extend(["--distributed-executor-backend", "mp"])
    cmd += ["--max-num-seqs", "64"]
    cmd.append("--enable-prefix-caching")
    cmd.extend(extra)
    return subprocess.Popen(cmd)


def start_module(model_path: str) -> None:
    args = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", model_path]
    subprocess.run(args + ["--dtype", "bfloat16"], check=True)


def start_shell(model_path: str, port: int) -> None:
    os.system(f"vllm serve {model_path} --host=0.0.0.0 --port={port} --api-key=token-abc123 &")


def start_split() -> None:
    subprocess.Popen(shlex.split("vllm serve facebook/opt-125m --max-model-len 2048 --seed 0"))


def start_docker() -> None:
    subprocess.run(
        ["docker", "run", "--gpus", "all", "vllm/vllm-openai:v0.9.2", "--model", "facebook/opt-125m"]
    )


def not_vllm() -> None:
    subprocess.run(["trl", "vllm-serve", "--model", "Qwen/Qwen3-0.6B"])  # TRL's own server
    subprocess.run("pkill -f 'vllm serve'", shell=True)


def in_process(vllm_serve_args: list[str]) -> None:
    from vllm.entrypoints.cli import main

    sys.argv = ["vllm", "serve", MODEL] + vllm_serve_args
    main.main()
