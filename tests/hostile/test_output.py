"""Nothing a linted repo writes reaches the terminal or a CI log as anything but text: no
escape sequence, no bidi control, no workflow command (`::cmd::`, `##[cmd]`), no error that
spans lines, no @mention or unsafe link in the job summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from childrun import lint

from vllm_lint.model import Finding, Severity, Span
from vllm_lint.report import ReportContext
from vllm_lint.report.markdown import render

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

IMAGE = "vllm/vllm-openai:v0.33.0"


def _commands(text: str) -> list[str]:
    """Lines a GitHub runner would read as a command."""
    return [line for line in text.splitlines() if line.lstrip().startswith("::") or "##[" in line]


def test_show_invocations_prints_no_escape_sequence(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(
        f'services:\n  s:\n    image: "{IMAGE}\\e[31m\\u202e"\n'
        '    environment: {"A\\e[2J": x, "B": "\\e]0;title\\a"}\n'
        '    command: [m, "--x\\e[1m", "##[error]forged"]\n'
    )
    out = lint(tmp_path, "--show-invocations", ".").out
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out, out
    assert "\\x1b[31m" in out  # shown, escaped
    assert _commands(out) == [], out


def test_text_output_is_inert_in_a_ci_log(tmp_path: Path) -> None:
    (tmp_path / "::warning::forged.yaml").write_text(
        f"services:\n  s:\n    image: {IMAGE}\n"
        "    command: [m, --tensor-parallel-size, '##[error]forged \u202eevil']\n"
    )
    child = lint(tmp_path, "--color", "never", ".")
    assert "VL004" in child.out
    assert _commands(child.out) == [], child.out
    assert "\u202e" not in child.out and "\\u202e" in child.out


def test_annotations_carry_no_bidi_control(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(
        f"services:\n  s:\n    image: {IMAGE}\n"
        "    command: [m, --tensor-parallel-size, 'a\u202eb\u2066c']\n"
    )
    out = lint(tmp_path, "--format", "github", ".").out
    [annotation] = [line for line in out.splitlines() if line.startswith("::error ")]
    assert "\u202e" not in annotation and "\u2066" not in annotation
    assert "a\\u202eb\\u2066c" in annotation


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ('fail-on: "x\\n::error::forged ##[warning]y"\n', r"fail-on: .*##\\\[warning\]y"),
        ("a: [\n::error::forged\n", r"invalid YAML"),
        ("select: " + "[" * 3000 + "]" * 3000 + "\n", r"\.vllm-lint\.yaml:1: nested more than"),
        ("x:\n" + "- " * 30_000 + "a\n", r"\.vllm-lint\.yaml:2: nested more than"),
        ("max-file-size: 1" + "0" * 400 + "\n", r"max-file-size"),
        ("max-file-size: " + "9" * 5000 + "\n", r"invalid YAML: Exceeds the limit"),
        ("ignore: [VL101]\n\u202e: 1\n", r"\\u202e"),
    ],
)
def test_a_bad_configuration_is_one_inert_line(tmp_path: Path, config: str, says: str) -> None:
    (tmp_path / ".vllm-lint.yaml").write_text(config)
    (tmp_path / "d.yaml").write_text(f"services:\n  s:\n    image: {IMAGE}\n    command: [m]\n")
    child = lint(tmp_path, ".", error=says)
    assert _commands(child.err) == [], child.err


def test_a_file_name_in_an_error_is_one_inert_line(tmp_path: Path) -> None:
    lint(tmp_path, "--config", "a\n::error::b.yaml", error=r"a\\x0a::error::b\.yaml: no such")
    lint(tmp_path, "x\n##[error]y.yaml", error=r"x\\x0a##\\\[error\]y\.yaml: no such file")


def test_a_reused_anchor_warns_nobody(tmp_path: Path) -> None:
    # ruamel's ReusedAnchorWarning quotes the file's lines on stderr; `lint` fails on any stderr
    (tmp_path / "d.yaml").write_text(
        f"s: &x 1\nt: &x 2\nservices:\n  s:\n    image: {IMAGE}\n"
        "    command: [m]\n::warning::forged: 1\n"
    )
    lint(tmp_path, ".")


def _finding(message: str, help_uri: str = "") -> Finding:
    return Finding(
        rule="ORG001",
        slug="org",
        severity=Severity.ERROR,
        message=message,
        span=Span("d.yaml", 1, 1, 1, 2),
        help_uri=help_uri,
    )


@pytest.mark.parametrize(
    ("url", "link"),
    [
        ("https://docs.example/rule", "(https://docs.example/rule)"),
        (
            "https://x.example/a)](javascript:alert(1)",
            "(https://x.example/a%29%5D%28javascript:alert%281%29)",
        ),
        ("javascript:alert(1)", None),
        (
            "https://x.example/![img](https://t.example/p.png)",
            "(https://x.example/%21%5Bimg%5D%28https://t.example/p.png%29)",
        ),
    ],
)
def test_a_summary_link_is_https_only_and_cannot_end_early(url: str, link: str | None) -> None:
    text = render([_finding("m", url)], ReportContext(1, 1))
    row = next(line for line in text.splitlines() if "ORG001" in line)
    if link is None:
        assert "](" not in row and "javascript" not in row
    else:
        assert f"]{link}" in row, row
        assert row.count("](") == 1


def test_the_summary_mentions_nobody_and_links_no_issue() -> None:
    text = render([_finding("ping @octocat and @org/team about #123 \u202e")], ReportContext(1, 1))
    assert "@octocat" not in text and "#123" not in text and "\u202e" not in text
    assert "@\u200boctocat" in text and "#\u200b123" in text
    assert re.search(r"\\\\u202e|\\u202e", text)


def test_json_output_escapes_everything(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(
        f"services:\n  s:\n    image: {IMAGE}\n"
        '    command: [m, --tensor-parallel-size, "a\u202e\\e[2J"]\n'
    )
    out = lint(tmp_path, "--format", "json", ".").out
    assert out.isascii()
    assert json.loads(out)["findings"][0]["rule"] == "VL004"
