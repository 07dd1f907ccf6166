"""The hardware table (schemas/hardware.json) is valid against its schema, and each form reads
a carrier's statement as the carrier means it (values as real files write them)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from conftest import REPO
from vllm_lint.read import gpus


def test_table_is_valid() -> None:
    data = json.loads((REPO / "schemas" / "hardware.json").read_text(encoding="utf-8"))
    schema = json.loads((REPO / "schemas" / "hardware.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert set(data["forms"]) >= {c["form"] for c in data["carriers"] if "form" in c}


@pytest.mark.parametrize(
    ("form", "text", "count"),
    [
        ("count", "2", 2),
        ("count", '"4"', 4),
        ("count", "2Gi", None),
        ("typed-count", "a100:4", 4),
        ("typed-count", "a100:2,v100:2", 4),
        ("gres", "gpu:8", 8),
        ("gres", "gpu:a100:4,shard:2", 4),
        ("gres", "gpu", 1),
        ("gres", "shard:2", None),
        ("docker-gpus", "all", None),
        ("docker-gpus", "2", 2),
        ("docker-gpus", '"device=0,1"', 2),
        ("docker-gpus", "count=3", 3),
        ("docker-gpus", "device=0,1", None),  # docker: both a count (`1`) and devices
        ("device-list", "0,1,2", 3),
        ("device-list", "GPU-8c1a,GPU-77f2", 2),
        ("device-list", "", None),
        ("device-list", "all", None),
    ],
)
def test_forms(form: str, text: str, count: int | None) -> None:
    assert gpus.count_of(form, text) == count


def test_other_platforms_are_not_judged() -> None:
    assert gpus.non_cuda_image("rocm/vllm:latest")
    assert gpus.non_cuda_image("vllm/vllm-tpu:nightly")
    assert not gpus.non_cuda_image("vllm/vllm-openai:v0.30.0")
