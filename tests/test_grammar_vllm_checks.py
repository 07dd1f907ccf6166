"""Argv checks that vLLM's own verdicts asked for (docs/conformance.md, "Missing checks outside
rule data"): each test uses an argv vLLM was asked about (tests/data/verdicts/) and cites the
vLLM line that decides it."""

from __future__ import annotations

import pytest

from vllm_lint import catalog, flag_history, versions
from vllm_lint.engine import check_command_line


def rules_of(argv: str, release: str) -> list[str]:
    return [f.rule for f in check_command_line(argv, release)]


# -- a removed or renamed flag before it existed -----------------------------------------------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # 0.30 added it (vllm/config/cache.py, 0.30.0), 0.31 removed it. vLLM 0.28.0:
        # "unrecognized arguments: --enable-mamba-fine-grained-prefix-cache"
        # (vllm/utils/argparse_utils.py:429; verdicts 07a998557733, 291d5be2894a)
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.28.0", ["VL001"]),
        ("Qwen/Qwen3-30B-A3B --tensor-parallel-size=4 --enable-mamba-fine-grained-prefix-cache",
         "0.28.0", ["VL001"]),
        ("Qwen/Qwen3-8B --no-enable-mamba-fine-grained-prefix-cache", "0.29.0", ["VL001"]),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.30.0", []),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.31.0", ["VL002"]),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.34.0", ["VL002"]),
    ],
)  # fmt: skip
def test_a_removed_flag_is_unknown_before_it_existed(
    argv: str, release: str, expected: list[str]
) -> None:
    assert rules_of(argv, release) == expected


def test_before_the_flag_the_message_says_when_it_came() -> None:
    [finding] = check_command_line("m --enable-mamba-fine-grained-prefix-cache", "0.28.0")
    assert "it first appears in vLLM 0.30.0" in finding.message


# the rows whose flag came after the oldest catalog
LATER_FLAGS = sorted(
    flag
    for flag in flag_history.removed_flags()
    if flag_history.first_in(flag) not in (None, catalog.known_releases()[0])
)


def test_some_table_flags_came_after_the_oldest_catalog() -> None:
    assert "--enable-mamba-fine-grained-prefix-cache" in LATER_FLAGS and len(LATER_FLAGS) > 10


@pytest.mark.parametrize("flag", LATER_FLAGS)
def test_every_table_flag_is_unknown_in_the_minor_before_its_first(flag: str) -> None:
    """For each row: the minor series before the first catalog that has the flag calls it
    unknown (VL001), never removed (VL002), never silently accepted."""
    first = flag_history.first_in(flag)
    known = catalog.known_releases()
    assert first is not None
    before = known[known.index(first) - 1]
    assert versions.key(before) < versions.key(first)
    row = flag_history.removed_flags()[flag]
    value = {"none": "", "one": " 1", "optional": "", "many": " 1 2"}[row.value]
    found = rules_of(f"m {flag}{value}", before)
    assert found and found[0] in ("VL001", "VL008", "VL010"), found
