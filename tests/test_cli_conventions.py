"""The command line behaves as users of ruff expect (issue 19): selectors, the nearest
configuration per file, .gitignore-style excludes, stdin, colour, quiet, statistics, concise
output, the rules listing, documentation links and the version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_cli, write

PAIR_028 = """
services:
  vllm:
    image: vllm/vllm-openai:v0.28.0
    command: [m, --use-replayssm, --mamba-backend, flashinfer]
"""  # VL102 on line 4 (0.28 runs ReplaySSM on triton only)


def rules_found(repo: Path, *args: str) -> list[tuple[str, str, int]]:
    run = run_cli("--format", "json", *args, cwd=repo)
    assert run.code in (0, 1), run.err
    return [(f["rule"], f["path"], f["line"]) for f in run.findings()]


# -- selectors ------------------------------------------------------------------------------


def test_selectors_ignore_case_and_select_groups_by_prefix(repo: Path) -> None:
    write(repo, "c.yaml", PAIR_028)
    assert rules_found(repo, "--select", "vl102", "c.yaml") == [("VL102", "c.yaml", 4)]
    assert rules_found(repo, "--select", "vl1", "c.yaml") == [("VL102", "c.yaml", 4)]
    assert rules_found(repo, "--select", "REPLAYSSM-REQUIRES-TRITON", "c.yaml") != []
    assert rules_found(repo, "--ignore", "Vl10", "c.yaml") == []


@pytest.mark.parametrize(
    ("option", "value", "hint"),
    [
        ("--select", "XYZ", "'XYZ' is no rule id"),
        ("--select", "VL9999", "'VL9999' is no rule id"),
        ("--ignore", "vl-102", "did you mean VL102?"),
        ("--select", "replayssm-requires-trito", "did you mean replayssm-requires-triton?"),
    ],
)
def test_a_selector_that_selects_nothing_is_a_usage_error(
    repo: Path, option: str, value: str, hint: str
) -> None:
    write(repo, "c.yaml", PAIR_028)
    run = run_cli(option, value, "c.yaml", cwd=repo)
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("vllm-lint: error: ") and run.err.count("\n") == 1
    assert hint in run.err, run.err


# -- the nearest configuration governs each file --------------------------------------------


def test_each_file_gets_its_nearest_configuration_whatever_the_order(repo: Path) -> None:
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    write(repo, "a/x.yaml", PAIR_028)
    write(repo, "b/y.yaml", PAIR_028)
    write(repo, "a/.vllm-lint.yaml", "ignore: [VL102]\n")
    expected = [("VL102", "b/y.yaml", 4)]
    assert rules_found(repo, "a/x.yaml", "b/y.yaml") == expected
    assert rules_found(repo, "b/y.yaml", "a/x.yaml") == expected
    assert rules_found(repo, ".") == expected
    # a configuration's patterns never reach outside its folder
    write(repo, "a/.vllm-lint.yaml", 'exclude: ["**"]\n')
    assert rules_found(repo, "a/x.yaml", "b/y.yaml") == expected
    # the top configuration governs the files no nearer one governs
    write(repo, ".vllm-lint.yaml", "ignore: [replayssm-requires-triton]\n")
    assert rules_found(repo, ".") == []


def test_no_config_and_an_explicit_config(repo: Path) -> None:
    write(repo, "c.yaml", PAIR_028)
    write(repo, ".vllm-lint.yaml", "ignore: [VL102]\n")
    write(repo, "strict.yaml", "fail-on: info\n")
    assert rules_found(repo, "c.yaml") == []
    assert rules_found(repo, "--no-config", "c.yaml") == [("VL102", "c.yaml", 4)]
    assert rules_found(repo, "--config", "strict.yaml", "c.yaml") == [("VL102", "c.yaml", 4)]
    both = run_cli("--config", "strict.yaml", "--no-config", "c.yaml", cwd=repo)
    assert both.code == 2 and "not allowed with argument" in both.err


def test_a_broken_nested_configuration_stops_the_run_naming_its_line(repo: Path) -> None:
    write(repo, "deep/er/c.yaml", PAIR_028)
    write(
        repo,
        "deep/.vllm-lint.yaml",
        "# team defaults\nfail-on: warning\nselect: [VL1]\nigonre: [VL2]\n",
    )
    run = run_cli(".", cwd=repo)
    assert run.code == 2
    assert run.err.strip().endswith(
        "deep/.vllm-lint.yaml:4: unknown key 'igonre'; did you mean 'ignore'?"
    ), run.err


# -- excludes are .gitignore patterns -------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "left"),
    [
        ("k8s", ["top.yaml"]),  # a folder of that name, at any depth
        ("k8s/", ["top.yaml"]),
        ("/k8s/x.yaml", ["k8s/sub/y.yaml", "top.yaml"]),  # anchored at the config's folder
        ("k8s/*.yaml", ["k8s/sub/y.yaml", "top.yaml"]),  # `*` stays in one folder
        ("**/y.yaml", ["k8s/x.yaml", "top.yaml"]),
        ("*.yaml\n!top.yaml", ["top.yaml"]),  # negation
    ],
)
def test_exclude_has_gitignore_semantics(repo: Path, pattern: str, left: list[str]) -> None:
    for name in ("k8s/x.yaml", "k8s/sub/y.yaml", "top.yaml"):
        write(repo, name, PAIR_028)
    patterns = json.dumps(pattern.split("\n"))
    write(repo, ".vllm-lint.yaml", f"extend-exclude: {patterns}\n")
    assert sorted(p for _r, p, _l in rules_found(repo, ".")) == left


# -- stdin ----------------------------------------------------------------------------------


def _cli(
    *args: str, stdin: str = "", cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vllm_lint", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_stdin_with_a_filename_is_linted_as_that_file(repo: Path) -> None:
    """`helm template . | vllm-lint - --stdin-filename chart/templates/deploy.yaml`: the
    rendered text is judged, with the kind, configuration and pins of that path, and the
    findings point at lines of the rendered text."""
    write(repo, "chart/.vllm-lint.yaml", "fail-on: error\n")
    proc = _cli(
        "-", "--stdin-filename", "chart/templates/deploy.yaml", stdin=PAIR_028.lstrip(), cwd=repo
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("chart/templates/deploy.yaml:4:") and "VL102" in proc.stdout
    assert "      4 |     command: [m, --use-replayssm" in proc.stdout  # the excerpt from stdin
    bare = _cli("-", stdin="#!/bin/sh\nvllm serve m --no-such-flag\n", cwd=repo)
    assert "<stdin>:2:14: VL001" in bare.stdout, bare.stdout + bare.stderr
    misuse = _cli("-", "x.yaml", cwd=repo)
    assert (
        misuse.returncode == 2 and "`-` (stdin) cannot be given with other paths" in misuse.stderr
    )


# -- output ----------------------------------------------------------------------------------


def test_colour_follows_no_color_and_force_color(repo: Path) -> None:
    write(repo, "c.yaml", PAIR_028)
    assert "\033[" not in _cli("c.yaml", cwd=repo).stdout  # not a terminal
    assert "\033[31merror" in _cli("c.yaml", cwd=repo, env={"FORCE_COLOR": "1"}).stdout
    both = {"FORCE_COLOR": "1", "NO_COLOR": "1"}
    assert "\033[" not in _cli("c.yaml", cwd=repo, env=both).stdout
    assert "\033[" in _cli("--color", "always", "c.yaml", cwd=repo, env={"NO_COLOR": "1"}).stdout


def test_quiet_statistics_and_concise(repo: Path) -> None:
    write(repo, "c.yaml", PAIR_028)
    write(repo, "d.yaml", PAIR_028)
    quiet = run_cli("-q", ".", cwd=repo)
    assert quiet.code == 1 and "Found" not in quiet.out and "VL102" in quiet.out
    clean = run_cli("-q", "--select", "VL101", ".", cwd=repo)
    assert (clean.code, clean.out) == (0, "")
    stats = run_cli("--statistics", ".", cwd=repo)
    assert stats.code == 1 and stats.out == "2  VL102  [error] replayssm-requires-triton\n"
    table = json.loads(run_cli("--statistics", "-o", "json", ".", cwd=repo).out)
    assert table == [
        {"rule": "VL102", "slug": "replayssm-requires-triton", "severity": "error", "count": 2}
    ]
    concise = run_cli("--output-format", "concise", ".", cwd=repo).out.splitlines()
    assert (
        len(concise) == 3 and concise[0].startswith("c.yaml:4:") and concise[2].startswith("Found")
    )


def test_rules_listing_filters_and_speaks_json() -> None:
    listed = run_cli("rules", "vl10")
    ids = [line.split()[0] for line in listed.out.splitlines()]
    assert ids and all(i.startswith("VL10") for i in ids) and "VL101" in ids
    records = json.loads(run_cli("rules", "--format", "json").out)
    from vllm_lint.rules import registry

    assert {r["id"] for r in records} == {r.id for r in registry.builtin_rules()}
    assert run_cli("rules", "NOPE").code == 2


def test_findings_link_to_the_rules_of_the_installed_release(repo: Path) -> None:
    from vllm_lint import __version__

    write(repo, "c.yaml", PAIR_028)
    [finding] = run_cli("--format", "json", "c.yaml", cwd=repo).findings()
    assert finding["help_uri"] == (
        f"https://github.com/vllm-lint/vllm-lint/blob/v{__version__}/docs/rules.md"
        "#vl102-replayssm-requires-triton"
    )


def test_version_says_which_vllm_releases_are_known() -> None:
    from vllm_lint import __version__
    from vllm_lint.release import known_releases

    run = run_cli("--version")
    assert run.code == 0
    assert (
        run.out == f"vllm-lint {__version__} (vLLM 0.2.0 to {known_releases()[-1]}, 92 releases)\n"
    )


def test_the_hook_runs_in_one_process() -> None:
    manifest = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "require_serial: true" in manifest
