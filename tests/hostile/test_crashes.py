"""Small inputs that crashed the whole run (exit 2 or a segfault, every other file lost): each is
now a finding about that file, and the files around it are still checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

IMAGE = "vllm/vllm-openai:v0.28.0"
# a known finding in a neighbour file: the run goes on past the hostile one
NEIGHBOUR = (
    f"services:\n  s:\n    image: {IMAGE}\n"
    '    command: [m, --use-replayssm, -sc, \'{"method": "ngram", "num_speculative_tokens": 3}\']\n'
)


def _findings(root: Path, hostile: str, text: str | bytes) -> list[tuple[str, str, int]]:
    (root / "neighbour.yaml").write_text(NEIGHBOUR)
    target = root / hostile
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text)
    data = json.loads(lint(root, "--format", "json", ".").out)
    found = [(f["rule"], f["path"], f["line"]) for f in data["findings"]]
    assert ("VL101", "neighbour.yaml", 4) in found, found
    return [f for f in found if f[1] != "neighbour.yaml"]


def _serve(args: str) -> str:
    return f"#!/bin/sh\nexec vllm serve m {args}\n"


@pytest.mark.parametrize(
    "text",
    [
        "# vllm\na: &a\n  <<: *a\n  image: x\n",
        "services: &a\n  s:\n    image: vllm/vllm-openai\n    command: [m]\n  <<: *a\n",
        "x: &a {<<: [*a, *a]}\ny: &b {<<: *a, z: &c {<<: [*b, *c]}}\nservices: {s: {<<: *b, image: vllm/vllm-openai}}\n",
    ],
    ids=["merges-itself", "services-merge-themselves", "merge-cycle"],
)
def test_a_mapping_that_merges_itself(tmp_path: Path, text: str) -> None:
    _findings(tmp_path, "d.yaml", text)


def test_a_long_merge_chain_is_linear(tmp_path: Path) -> None:
    lines = ["m0: &m0 {k0: 0}"]
    lines += [f"m{i}: &m{i} {{<<: *m{i - 1}, k{i}: {i}}}" for i in range(1, 3000)]
    lines.append("services: {s: {<<: *m2999, image: vllm/vllm-openai, command: [m]}}")
    _findings(tmp_path, "d.yaml", "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ("--speculative-config '" + '{"a":' * 5000 + "1" + "}" * 5000 + "'", "VL007"),
        ("--speculative-config '" + "[" * 100_000 + "'", "VL007"),
        ("--speculative-config '" + '{"a":' * 200 + "1" + "}" * 200 + "'", "VL007"),
        ("--hf-overrides '" + '{"a":' * 5000 + "1" + "}" * 5000 + "'", None),
        ("--hf-overrides '" + '{"a":' * 200 + "1" + "}" * 200 + "'", None),
        ("--speculative-config." + ".".join(["a"] * 5000) + " 1", "VL007"),
        ("--max-model-len " + "9" * 310 + ".5k", "VL004"),
        ("--max-model-len " + "9" * 5000, "VL004"),
        ("--gpu-memory-utilization 1e400", None),
        ("--max-num-seqs " + "9" * 400, None),
    ],
    ids=[
        "deep-json",
        "unclosed-json",
        "json-200",
        "deep-json-or-str",
        "json-or-str-200",
        "dotted",
        "310-digits",
        "5000-digits",
        "1e400",
        "400-digits",
    ],
)
def test_extreme_flag_values(tmp_path: Path, args: str, rule: str | None) -> None:
    found = _findings(tmp_path, "serve.sh", _serve(args))
    if rule is not None:
        assert rule in {f[0] for f in found}, found


def test_a_nul_in_a_config_path(tmp_path: Path) -> None:
    found = _findings(
        tmp_path,
        "d.yaml",
        f'services:\n  s:\n    image: {IMAGE}\n    command: [m, --config, "a\\0b.yaml"]\n',
    )
    assert found == [("VL904", "d.yaml", 4)]


def test_deep_block_nesting_does_not_crash_the_parser(tmp_path: Path) -> None:
    # libyaml's composer recursed once per level: 30,000 levels (64 KB) was a segfault
    found = _findings(tmp_path, "d.yaml", "# vllm\nx:\n" + "- " * 30_000 + "a\n")
    assert found == [("VL901", "d.yaml", 3)]


def test_deep_block_nesting_through_a_config_target(tmp_path: Path) -> None:
    (tmp_path / "engine.yaml").write_text("model: m\nx:\n" + "- " * 30_000 + "a\n")
    found = _findings(
        tmp_path,
        "d.yaml",
        f"services:\n  s:\n    image: {IMAGE}\n    command: [m, --config, engine.yaml]\n",
    )
    assert ("VL901", "engine.yaml", 3) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "# vllm\n" + "".join(" " * i + "k:\n" for i in range(1200)),
        "# vllm\n" + "? " * 20_000 + "a\n",
        "# vllm\nx: " + "[" * 600 + "\n" + "- " * 600 + "\n",
    ],
    ids=["indented", "complex-keys", "mixed"],
)
def test_other_deep_shapes(tmp_path: Path, text: str) -> None:
    found = _findings(tmp_path, "d.yaml", text)
    assert [f[0] for f in found] in ([], ["VL901"]), found


def test_annotate_limit_is_a_number(tmp_path: Path) -> None:
    lint(tmp_path, "--annotate-limit", "²", error=r"--annotate-limit: invalid int value")
