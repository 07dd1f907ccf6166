"""`--format github`: workflow commands escaped as actions/toolkit does, capped, errors first."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from conftest import BAD_DEPLOYMENT as BAD
from conftest import run_cli, write
from vllm_lint.model import Finding, Related, Severity, Span
from vllm_lint.report import ReportContext, gate, github
from vllm_lint.report.escape import printable

# A flag whose name carries every character that must be escaped, and a forged command
# (YAML double quotes turn the \\r\\n into CR LF; the name ends at the `=`).
HOSTILE_ARG = '"--bogus%0A,:\\r\\n::error file=forged.yaml::pwned"'
HOSTILE_NAME = "--bogus%0A,:\r\n::error file"

_COMMAND = re.compile(r"^::(?P<kind>\w+)(?: (?P<props>[^:]*))?::(?P<data>.*)$")


def unescape(text: str) -> str:
    """The runner's decoding (actions/runner ActionCommand.Unescape), %25 last."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def parse(line: str) -> tuple[str, dict[str, str], str]:
    match = _COMMAND.match(line)
    assert match, line
    props = {}
    for pair in filter(None, (match.group("props") or "").split(",")):
        key, value = pair.split("=", 1)
        props[key] = unescape(value)
    return match.group("kind"), props, unescape(match.group("data"))


def finding(line: int, severity: Severity = Severity.ERROR, **kw: object) -> Finding:
    values: dict[str, object] = {
        "rule": "VL101",
        "slug": "replayssm-no-spec-decode",
        "severity": severity,
        "message": f"finding on line {line}",
        "span": Span("deploy/vllm.yaml", line, 3, line, 9),
    }
    values.update(kw)
    return Finding(**values)  # type: ignore[arg-type]


def render(findings: list[Finding], limit: int = 10, workspace: str | None = None) -> str:
    out = io.StringIO()
    context = ReportContext(1, 1, annotate_limit=limit, workspace=workspace)
    github.report(findings, out, context)
    return out.getvalue()


@pytest.mark.parametrize(
    ("text", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("100%", "100%25", "100%25"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("a:b,c", "a:b,c", "a%3Ab%2Cc"),
        ("%0A", "%250A", "%250A"),  # a literal escape code must not decode to a newline
        ("::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"),
    ],
)
def test_escaping_matches_the_toolkit(text: str, data: str, prop: str) -> None:
    assert github.escape_data(text) == data
    assert github.escape_property(text) == prop
    assert unescape(github.escape_data(text)) == text
    assert unescape(github.escape_property(text)) == text


def test_one_command_per_finding_with_position_and_title(tmp_path: Path) -> None:
    write(tmp_path, "deploy/vllm.yaml", BAD)
    expected = run_cli("--format", "json", ".", cwd=tmp_path).findings()
    run = run_cli("--format", "github", "--summary-file", str(tmp_path / "s.md"), ".", cwd=tmp_path)
    assert run.code == 1
    commands = [parse(line) for line in run.out.splitlines() if line.startswith("::")]
    assert len(commands) == len(expected) == 1
    kind, props, data = commands[0]
    want = expected[0]
    assert kind == "error"
    assert props == {
        "file": "deploy/vllm.yaml",
        "line": str(want["line"]),
        "col": str(want["col"]),
        "endLine": str(want["end_line"]),
        **({"endColumn": str(want["end_col"])} if want["end_line"] == want["line"] else {}),
        "title": f"{want['rule']} {want['slug']}",
    }
    assert data.startswith(f"deploy/vllm.yaml:{want['line']}:{want['col']}: {want['message']}")
    related = want["related"][0]
    assert f"related: deploy/vllm.yaml:{related['line']}:{related['col']}: " in data
    assert f"fix: {want['fix']}" in data


@pytest.mark.parametrize("name", ["odd,na:me 50%.yaml", "new\nline%0A.yaml"])
def test_hostile_file_names_and_messages_survive_the_round_trip(tmp_path: Path, name: str) -> None:
    text = BAD.replace("- --use-replayssm", f"- --use-replayssm\n            - {HOSTILE_ARG}")
    write(tmp_path, f"deploy/{name}", text)
    run = run_cli("--format", "github", f"deploy/{name}", cwd=tmp_path)
    lines = run.out.splitlines()
    commands = [parse(line) for line in lines if line.startswith("::")]
    assert [kind for kind, _, _ in commands] == ["error", "error"], run.out
    for _, props, data in commands:
        assert props["file"] == f"deploy/{name}"  # exact, so that the annotation lands
        # in the message, a control character of the name or value is shown escaped
        assert data.startswith(f"deploy/{printable(name)}:{props['line']}:")
    unknown = [data for _, props, data in commands if props["title"].startswith("VL001")]
    shown = printable(gate.shown(HOSTILE_NAME, "log"))  # a line of it starting `::` is `\::`
    assert unknown and f"unknown flag {shown}" in unknown[0]
    assert not any(line.startswith("::error file=forged") for line in lines)


def test_paths_are_relative_to_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "ws"
    write(workspace, "deploy/vllm.yaml", BAD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    run = run_cli("--format", "github", str(workspace / "deploy"), cwd=elsewhere)
    assert run.out.startswith("::error file=deploy/vllm.yaml,line="), run.out
    assert github.workspace_path("/somewhere/else.yaml", str(workspace)) == "/somewhere/else.yaml"


def test_the_cap_keeps_errors_and_lists_the_rest_without_commands() -> None:
    warnings = [finding(line, Severity.WARNING) for line in range(1, 13)]
    errors = [finding(line) for line in range(20, 23)]
    out = render(warnings + errors, limit=10)
    lines = out.splitlines()
    commands = [parse(line) for line in lines if _COMMAND.match(line)]
    annotated = [(kind, int(props["line"])) for kind, props, _ in commands if "line" in props]
    assert sorted(annotated) == sorted(
        [("warning", n) for n in range(1, 8)] + [("error", n) for n in range(20, 23)]
    )
    notice = [data for kind, props, data in commands if kind == "notice"]
    assert notice and notice[0].startswith("10 of 15 findings are annotated")
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start].removeprefix("::stop-commands::")
    assert len(token) == 32
    end = lines.index(f"::{token}::")
    listed = lines[start + 1 : end]
    assert [int(line.split(":")[1]) for line in listed] == list(range(8, 13))
    assert all("[warning]" in line for line in listed)


def test_limit_zero_annotates_nothing_and_lists_everything() -> None:
    out = render([finding(1), finding(2, Severity.INFO)], limit=0)
    assert "::error" not in out and "::notice file=" not in out
    assert "0 of 2 findings are annotated" in out
    assert "deploy/vllm.yaml:2:3: VL101 [info] finding on line 2" in out


def test_a_listed_message_cannot_break_out_of_the_listing() -> None:
    hostile = finding(2, message="x\n::error file=forged.yaml::pwned")
    out = render([finding(1), hostile], limit=1)
    assert "\n::error file=forged.yaml" not in out
    assert "deploy/vllm.yaml:2:3: VL101 [error] x\\x0a::error file=forged.yaml::pwned" in out


def test_related_release_and_whole_file_findings() -> None:
    whole = finding(0, span=Span("deploy/vllm.yaml", 0, 0, 0, 0))
    related = finding(5, related=(Related(Span("deploy/other.yaml", 2, 1, 2, 4), "set here"),))
    lines = render([whole, related]).splitlines()
    _, props, _ = parse(lines[0])
    assert props == {"file": "deploy/vllm.yaml", "title": "VL101 replayssm-no-spec-decode"}
    _, _, data = parse(lines[1])
    assert "\nrelated: deploy/other.yaml:2:1: set here" in data


def test_cli_rejects_a_negative_annotate_limit(tmp_path: Path) -> None:
    run = run_cli("--format", "github", "--annotate-limit", "-1", ".", cwd=tmp_path)
    assert run.code == 2
    assert run.err == "vllm-lint: error: --annotate-limit: must be 0 or more\n"


def test_github_format_appends_to_the_step_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "deploy/vllm.yaml", BAD)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    run_cli("--format", "github", "deploy", cwd=tmp_path)
    text = summary.read_text("utf-8")
    assert text.startswith("earlier step\n## vllm-lint\n")
    assert "| deploy/vllm.yaml:13:15 |" in text
    run_cli("--format", "text", "deploy", cwd=tmp_path)  # other formats leave it alone
    assert summary.read_text("utf-8") == text
