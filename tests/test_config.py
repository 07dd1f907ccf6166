"""Configuration files, inline suppressions and custom rule packs (issue 6)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from conftest import REPO, run_cli, write

PAIR_028 = """
services:
  vllm:
    image: vllm/vllm-openai:{tag}
    command: [m, --use-replayssm, --mamba-backend, flashinfer]
"""


def rules_found(repo: Path, *args: str) -> list[tuple[str, str, int]]:
    run = run_cli("--format", "json", *args, cwd=repo)
    assert run.code in (0, 1), run.err
    return [(f["rule"], f["path"], f["line"]) for f in run.findings()]


def test_yaml_config_is_found_upward_and_selects(repo: Path) -> None:
    write(repo, "deploy/a/compose.yaml", PAIR_028.format(tag="v0.28.0"))
    assert rules_found(repo, "deploy/a") == [("VL102", "deploy/a/compose.yaml", 4)]
    write(repo, ".vllm-lint.yaml", "ignore: [replayssm-requires-triton]\n")
    assert rules_found(repo, "deploy/a") == []
    write(repo, ".vllm-lint.yaml", "select: [VL2]\n")  # a prefix selecting nothing here
    assert rules_found(repo, "deploy/a") == []
    # the command line's --select replaces the config's
    assert rules_found(repo, "--select", "VL1", "deploy/a") == [
        ("VL102", "deploy/a/compose.yaml", 4)
    ]


def test_pyproject_table_and_precedence(repo: Path) -> None:
    write(repo, "compose.yaml", PAIR_028.format(tag="v0.28.0"))
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.vllm-lint]\nignore = ["VL1"]\n')
    assert rules_found(repo, ".") == []
    write(repo, ".vllm-lint.yaml", "ignore: [VL9]\n")  # the YAML file wins over pyproject
    assert rules_found(repo, ".") == [("VL102", "compose.yaml", 4)]
    write(repo, "other.yaml", "fail-on: never\n")
    assert run_cli("--config", "other.yaml", ".", cwd=repo).code == 0
    assert run_cli("--config", "missing.yaml", ".", cwd=repo).code == 2


def test_configured_default_release_for_files_without_a_tag(repo: Path) -> None:
    write(repo, "cfg.yaml", "model: m\nuse-replayssm: true\nmamba-backend: flashinfer\n")
    write(repo, ".vllm-lint.yaml", "vllm-version: 0.28.0\n")
    run = run_cli("--format", "json", "cfg.yaml", cwd=repo)
    [finding] = run.findings()
    assert (finding["rule"], finding["release"]["version"]) == ("VL102", "0.28.0")
    assert finding["release"]["reason"] == "configured default"


def test_bad_configuration_is_a_one_line_usage_error(repo: Path) -> None:
    write(repo, "c.yaml", PAIR_028.format(tag="v0.28.0"))
    cases = {
        "selct: [VL1]\n": ".vllm-lint.yaml:1: unknown key 'selct'; did you mean 'select'?",
        "fail-on: error\nignore: [VL9999, bogus]\n": "'VL9999' is no rule id, id prefix or slug",
        "ignore: [replayssm-no-spec-decod]\n": "did you mean replayssm-no-spec-decode?",
        "fail-on: sometimes\n": "fail-on: 'sometimes' is not one of",
        "vllm-version: 0.1.0\n": "vllm-version 0.1.0: unknown release",
        "ignore: VL1\n": "ignore: 'VL1' is not of type 'array'",
        "ignore: [\n": "invalid YAML",
    }
    for text, message in cases.items():
        write(repo, ".vllm-lint.yaml", text)
        run = run_cli(".", cwd=repo)
        assert run.code == 2, text
        assert run.err.startswith("vllm-lint: error: ") and run.err.count("\n") == 1, run.err
        assert ".vllm-lint.yaml" in run.err and message in run.err, run.err


def test_per_path_ignores_exclude_and_fail_on(repo: Path) -> None:
    write(repo, "legacy/compose.yaml", PAIR_028.format(tag="v0.28.0"))
    write(repo, "prod/compose.yaml", PAIR_028.format(tag="v0.28.0"))
    write(repo, "vendor/compose.yaml", PAIR_028.format(tag="v0.28.0"))
    write(
        repo,
        ".vllm-lint.yaml",
        """
        per-path-ignores:
          "legacy/**": [VL102]
        exclude: ["vendor/*"]
        fail-on: never
        """,
    )
    assert rules_found(repo, ".") == [("VL102", "prod/compose.yaml", 4)]
    assert run_cli(".", cwd=repo).code == 0
    assert rules_found(repo, "vendor/compose.yaml") == []  # excluded even when named


def test_inline_suppressions_in_yaml(repo: Path) -> None:
    write(
        repo,
        "c.yaml",
        """
        services:
          a:  # the comment may stand on the line above the finding
            image: vllm/vllm-openai:v0.28.0
            # vllm-lint: ignore[VL102] flashinfer is patched into our image
            command: [m, --use-replayssm, --mamba-backend, flashinfer]
          b:
            image: vllm/vllm-openai:v0.28.0
            command: [m, --use-replayssm, --mamba-backend, cpu]  # vllm-lint: ignore[replayssm-requires-triton]
          c:
            image: vllm/vllm-openai:v0.28.0
            command: [m, --use-replayssm]  # vllm-lint: ignore[VL101] left over from 0.27
        """,
    )
    found = rules_found(repo, "c.yaml")
    assert found == [("VL950", "c.yaml", 8), ("VL951", "c.yaml", 11)]


def test_inline_suppressions_in_shell_comments(repo: Path) -> None:
    write(
        repo,
        "p.yaml",
        """
        services:
          a:
            image: vllm/vllm-openai:v0.28.0
            entrypoint: [/bin/sh, -c]
            command:
              - |
                # vllm-lint: ignore — we run a patched 0.28
                vllm serve m --use-replayssm --mamba-backend flashinfer
                vllm serve m --use-replayssm --mamba-backend cpu
        """,
    )
    assert rules_found(repo, "p.yaml") == [("VL102", "p.yaml", 9)]


def _packs_repo(repo: Path) -> Path:
    for name in (
        "forbid-trust-remote-code.json",
        "require-max-model-len.json",
        "require-pinned-image.json",
        "vllm-lint.yaml",
    ):
        shutil.copy(REPO / "examples" / "rule-packs" / name, repo / name)
    write(
        repo,
        "deploy.yaml",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
            - name: vllm
              image: vllm/vllm-openai:latest
              args: [org/model, --trust-remote-code]
        """,
    )
    return repo


def test_custom_packs_report_like_builtin_rules_in_every_format(repo: Path) -> None:
    _packs_repo(repo)
    expected = [
        ("ORG003", "deploy.yaml", 7),
        ("ORG002", "deploy.yaml", 8),
        ("ORG001", "deploy.yaml", 8),
    ]
    found = rules_found(repo, "--config", "vllm-lint.yaml", "deploy.yaml")
    assert sorted(found) == sorted(expected)
    text = run_cli("--config", "vllm-lint.yaml", "--color", "never", "deploy.yaml", cwd=repo).out
    assert "deploy.yaml:8:25: ORG001 [error] --trust-remote-code is forbidden here" in text
    from vllm_lint.report import REPORTERS

    for fmt in sorted(set(REPORTERS) - {"text", "json"}):
        out = run_cli("--config", "vllm-lint.yaml", "--format", fmt, "deploy.yaml", cwd=repo).out
        assert "ORG001" in out and "ORG003" in out, fmt


def test_broken_packs_name_the_file_and_pointer(repo: Path) -> None:
    _packs_repo(repo)
    pack: dict[str, Any] = json.loads((repo / "forbid-trust-remote-code.json").read_text())
    pack["rules"][0]["severity"] = "fatal"
    (repo / "forbid-trust-remote-code.json").write_text(json.dumps(pack))
    run = run_cli("--config", "vllm-lint.yaml", "deploy.yaml", cwd=repo)
    assert run.code == 2
    assert "forbid-trust-remote-code.json: /rules/0/severity: 'fatal' is not one of" in run.err
    (repo / "forbid-trust-remote-code.json").write_text('{"rules": [')
    run = run_cli("--config", "vllm-lint.yaml", "deploy.yaml", cwd=repo)
    assert run.code == 2 and "invalid JSON" in run.err
    pack["rules"][0].update(severity="error", id="VL101", slug="replayssm-no-spec-decode")
    (repo / "forbid-trust-remote-code.json").write_text(json.dumps(pack))
    run = run_cli("--config", "vllm-lint.yaml", "deploy.yaml", cwd=repo)
    assert run.code == 2 and "defined twice" in run.err
