"""Broken files: a finding or a one-line error naming the file and line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits


def findings(root: Path, *args: str) -> list[tuple[str, str, int]]:
    child = lint(root, "--format", "json", *args)
    return [(f["rule"], f["path"], f["line"]) for f in json.loads(child.out)["findings"]]


def test_yaml_syntax_error_in_a_vllm_file_is_reported_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text("image: vllm/vllm-openai:v0.33.0\nargs: [a, b\nx: : :\n")
    assert findings(tmp_path, "d.yaml") == [("VL901", "d.yaml", 3)]


def test_broken_yaml_without_vllm_is_not_our_business(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text("a: [1, 2\n")
    assert findings(tmp_path, "d.yaml") == []


def test_duplicate_keys_are_reported(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n    command: [m]\n"
        "    command: [m, --use-replayssm]\n"
    )
    assert ("VL920", "c.yaml", 5) in findings(tmp_path, "c.yaml")


def test_invalid_utf8_binary_and_empty_files(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_bytes(b"a: vllm\nb: \xff\xfe\xfa\n")
    (tmp_path / "bin.yaml").write_bytes(b"vllm\x00\x01\x02" * 10)
    (tmp_path / "empty.yaml").write_bytes(b"")
    (tmp_path / "blank.json").write_bytes(b"   \n")
    assert findings(tmp_path, ".") == [
        ("VL902", "bad.yaml", 2),
        ("VL902", "bin.yaml", 1),
    ]


def test_utf16_manifest_is_read(tmp_path: Path) -> None:
    text = "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n    command: [m, --use-replayssm, --mamba-backend, cpu]\n"
    (tmp_path / "u.yaml").write_bytes(text.encode("utf-16"))
    assert findings(tmp_path, "u.yaml") == [("VL102", "u.yaml", 4)]


def test_values_of_the_wrong_type_are_skipped_quietly(tmp_path: Path) -> None:
    (tmp_path / "w.yaml").write_text(
        "kind: Pod\nspec:\n  containers: vllm\n---\nkind: Pod\nspec:\n  containers:\n"
        "    - 5\n    - {name: a, image: vllm/vllm-openai:v0.33.0, args: {a: b}, command: 7, env: 3}\n"
        "---\nservices: [vllm, 1]\n---\nservices:\n  x: vllm\n  y: {image: [vllm], command: {a: 1}}\n"
        "---\n- vllm\n- serve\n---\n42\n"
    )
    child = lint(tmp_path, "w.yaml")
    assert child.code == 0, child.out


def test_invalid_json_inside_a_flag(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n"
        "    command: [m, --speculative-config, '{\"method\": ngram}']\n"
    )
    assert findings(tmp_path, "c.yaml") == [("VL007", "c.yaml", 4)]


def test_a_bad_cli_value_or_missing_path_is_one_line(tmp_path: Path) -> None:
    lint(tmp_path, "--format", "nope", error=r"--format: invalid choice: 'nope'")
    lint(tmp_path, "missing.yaml", error=r"missing\.yaml: no such file or folder")
