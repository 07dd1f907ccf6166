"""The launcher and server-image tables (schemas/launchers.json, schemas/server-images.json)
are valid against their schemas, and read as their documentation says."""

from __future__ import annotations

import json

import jsonschema
import pytest

from conftest import REPO
from vllm_lint.images import server_image_of
from vllm_lint.model import Span, Token
from vllm_lint.sources.launchers import launcher_at, table, unwrap
from vllm_lint.sources.programs import find_server

SCHEMAS = REPO / "schemas"


@pytest.mark.parametrize("name", ["launchers", "server-images"])
def test_table_is_valid(name: str) -> None:
    data = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


def test_each_launcher_option_is_read_one_way() -> None:
    """No option is listed both as taking a value and as a switch."""
    for launchers in table().values():
        for launcher in launchers:
            assert not launcher.values & launcher.flags, launcher.id


def words(line: str) -> list[Token]:
    return [Token(w, Span("t", 1, k + 1, 1, k + 2)) for k, w in enumerate(line.split())]


@pytest.mark.parametrize(
    ("line", "program"),
    [
        # srun(1): -p, --cpus-per-task, -N take a value; --exclusive does not (optional value)
        ("srun -p gpu --cpus-per-task 8 --exclusive -N 1 vllm serve m", "vllm"),
        # timeout(1): a DURATION before the command; -s takes a signal
        ("timeout -s INT 60 vllm serve m", "vllm"),
        # taskset(1): the mask is a positional; -c is a switch
        ("taskset -c 0-3 vllm serve m", "vllm"),
        # mpirun(1): --mca takes two words
        ("mpirun -np 2 --mca btl tcp vllm serve m", "vllm"),
        # docker run --help: -d/-i/-t bundle; -p and -e take values
        ("docker run -dit -p 8000:8000 -e A=b vllm/vllm-openai:v0.30.0 --model m", "image"),
        # accelerate launch: - and _ are the same in option names
        ("accelerate launch --num-processes 2 -m vllm.entrypoints.openai.api_server", "module"),
    ],
)
def test_the_command_starts_after_the_launcher_options(line: str, program: str) -> None:
    tokens = words(line)
    launcher = launcher_at(tokens, 0)
    assert launcher is not None
    wrapped = unwrap(tokens, 0, launcher)
    assert wrapped is not None
    if program == "image":
        assert wrapped.image is not None and wrapped.image.text.startswith("vllm/")
    elif program == "module":
        assert wrapped.kind == "python-module"
        assert tokens[wrapped.start].text == "vllm.entrypoints.openai.api_server"
    else:
        assert find_server(tokens) is not None


@pytest.mark.parametrize(
    "line",
    ["srun --help", "sbatch job.sh", "vllm serve --help", "vllm --version", "nohup vllm bench m"],
)
def test_no_server(line: str) -> None:
    assert find_server(words(line)) is None


@pytest.mark.parametrize(
    ("image", "args"),
    [
        ("vllm/vllm-openai:v0.30.0", "argv"),
        ("lmcache/vllm-openai:2025-05-27-v1", "argv"),
        ("docker.io/vllm/vllm-openai-cpu:v0.23.0", "argv"),
        ("vllm/vllm-tpu:nightly", "env:VLLM_ARGS"),
        ("/images/vllm-openai_v0.10.2.sif", "argv"),
        ("python:3.12", None),
        ("ghcr.io/vllm-project/semantic-router/mock-vllm:latest", None),
    ],
)
def test_server_images(image: str, args: str | None) -> None:
    found = server_image_of(image)
    assert (found.args if found else None) == args
