"""One line model everywhere: a line ends at `\\n` (a `\\r` before it dropped), as git and GitHub
number lines. YAML also breaks lines at a lone CR, NEL, U+2028 and U+2029; a finding placed by
YAML's count would point (and annotate, and show an excerpt of) another line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

PAIR = (
    '    command: [m, --use-replayssm, -sc, \'{"method": "ngram", "num_speculative_tokens": 3}\']\n'
)


@pytest.mark.parametrize("brk", ["\r", "\x85", "\u2028", "\u2029", "\r\n"])
def test_findings_count_lines_as_github_does(tmp_path: Path, brk: str) -> None:
    # the break sits inside a comment, where YAML allows any of them
    text = (
        f"# a comment{brk}# that YAML reads as two lines\n"
        "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n" + PAIR
    )
    (tmp_path / "d.yaml").write_text(text, newline="")
    data = json.loads(lint(tmp_path, "--format", "json", "d.yaml").out)
    [finding] = data["findings"]
    line = text.split("\n").index(PAIR[:-1]) + 1  # the line GitHub shows the pair on
    assert finding["rule"] == "VL101" and finding["line"] == line, (finding, line)
    out = lint(tmp_path, "--color", "never", "d.yaml").out
    excerpt = [x for x in out.splitlines() if x.strip().startswith(f"{line} |")]
    assert excerpt and "--use-replayssm" in excerpt[0], out


def test_utf16_without_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    text = "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n" + PAIR
    for codec in ("utf-16-le", "utf-16-be"):
        (tmp_path / "u.yaml").write_bytes(text.encode(codec))
        data = json.loads(lint(tmp_path, "--format", "json", "u.yaml").out)
        assert [(f["rule"], f["line"]) for f in data["findings"]] == [("VL101", 4)], codec


@pytest.mark.parametrize(
    ("line", "suppressed"),
    [
        (PAIR.rstrip("\n") + "  # vllm-lint: ignore[VL101] our backport\n", True),
        (
            '    command: [m, --use-replayssm, -sc, \'{"method": "ngram", "num_speculative_tokens": 3}\', \'# vllm-lint: ignore[VL101] x\']\n',
            False,
        ),
        (PAIR.rstrip("]\n") + ', "x # vllm-lint: ignore[VL101] y"]\n', False),
    ],
    ids=["comment", "single-quoted", "double-quoted"],
)
def test_a_suppression_marker_inside_a_string_suppresses_nothing(
    tmp_path: Path, line: str, suppressed: bool
) -> None:
    (tmp_path / "d.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n" + line
    )
    data = json.loads(lint(tmp_path, "--format", "json", "d.yaml").out)
    rules = [f["rule"] for f in data["findings"]]
    assert ("VL101" not in rules) is suppressed, rules
