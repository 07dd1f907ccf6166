"""`vllm-lint flag`: a flag's history over the catalogued releases and what a bump crosses
(issue 29), through the real command line; the expectations come from the shipped data (the
catalogs and schemas/renamed-flags.json), not from a copy of the output."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, run_cli
from vllm_lint.argv import catalog
from vllm_lint.release import full_key

TABLE = json.loads((REPO / "schemas" / "renamed-flags.json").read_text("utf-8"))["flags"]


def test_swap_space_history_in_text() -> None:
    run = run_cli("flag", "--swap-space")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("--swap-space (catalogued vLLM releases ")
    assert lines[1].split()[:2] == [catalog.known_releases()[0], "added"]
    assert lines[-1].split()[:2] == [TABLE["--swap-space"]["removed_in"], "removed"]


@pytest.mark.parametrize("written", ["swap_space", "swap-space", "--swap_space"])
def test_a_json_key_or_keyword_names_the_same_flag(written: str) -> None:
    assert run_cli("flag", written, "--format", "json").json() == (
        run_cli("flag", "--swap-space", "--format", "json").json()
    )


def test_every_removed_flag_says_when_and_what_it_became() -> None:
    for flag, row in TABLE.items():
        if not any(catalog.catalog_for(r).resolve(flag) for r in catalog.known_releases()):
            continue  # gone before the oldest catalog: nothing to tell it by
        run = run_cli("flag", flag, "--format", "json")
        assert run.code == 0, run.err
        gone = [e for e in run.json()["events"] if e["kind"] in ("removed", "renamed")]
        assert gone, flag
        assert gone[0]["release"] == row["removed_in"], flag
        target = row["replacement"].get("flag")
        if isinstance(target, str):
            assert gone[0]["kind"] == "renamed" and target in gone[0]["detail"], flag


def test_a_deprecation_and_a_changed_default_are_told() -> None:
    events = run_cli("flag", "--cuda-graph-sizes", "--format", "json").json()["events"]
    kinds = [e["kind"] for e in events]
    assert "deprecated" in kinds and "default" in kinds
    assert kinds[-1] == "renamed"


def test_since_removed_lists_exactly_what_the_bump_crosses() -> None:
    run = run_cli("flag", "--since", "0.30", "--removed", "--format", "json")
    assert run.code == 0, run.err
    got = {(e["flag"], e["release"]) for e in run.json()["events"]}
    expected = {
        (flag, row["removed_in"])
        for flag, row in TABLE.items()
        if full_key("0.30.0") < full_key(row["removed_in"])
        and any(catalog.catalog_for(r).resolve(flag) for r in catalog.known_releases())
    }
    assert expected and got == expected
    assert {e["kind"] for e in run.json()["events"]} <= {"removed", "renamed"}
    text = run_cli("flag", "--since", "0.30", "--until", "0.34", "--removed")
    assert text.out.splitlines()[-1] == f"{len(got)} change(s) after vLLM 0.30.0 up to 0.34.0."


def test_until_bounds_the_listing() -> None:
    early = run_cli("flag", "--since", "0.10", "--until", "0.14", "--format", "json").json()
    assert early["events"] and early["until"] == "0.14.1"  # the series' newest catalogued
    assert all(
        full_key("0.10.0") < full_key(e["release"]) <= full_key("0.14.1") for e in early["events"]
    )
    assert any(e["release"].startswith("0.14.") for e in early["events"])  # the whole series


def test_an_unknown_flag_is_a_usage_error_with_a_suggestion() -> None:
    run = run_cli("flag", "--swap-spac")
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (
        "vllm-lint: error: --swap-spac: no catalogued vLLM release has this flag; "
        "did you mean --swap-space?"
    )


@pytest.mark.parametrize(
    "args",
    [[], ["--swap-space", "--max-model-len"], ["--since", "banana"], ["--x", "--format", "yaml"]],
)
def test_bad_arguments_exit_2_in_one_line(args: list[str]) -> None:
    run = run_cli("flag", *args)
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and run.err.startswith("vllm-lint: error: ")


def test_what_is_echoed_back_is_escaped() -> None:
    run = run_cli("flag", "--\x1b[31mred\n::error::x")
    assert run.code == 2
    assert "\x1b" not in run.err and run.err.count("\n") == 1 and "\\x1b" in run.err


def test_every_history_the_rule_docs_link_to_is_there() -> None:
    import re

    docs = (REPO / "docs" / "rules.md").read_text("utf-8")
    flags = set(re.findall(r"`vllm-lint flag (--[\w-]+)`", docs))
    assert len(flags) > 20
    for flag in sorted(flags):
        run = run_cli("flag", flag)
        assert run.code == 0 and run.out.startswith(flag + " "), (flag, run.err)
