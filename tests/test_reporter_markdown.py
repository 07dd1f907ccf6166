"""The Markdown findings table (job summary, `--format markdown`, `--summary-file`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, write
from vllm_lint.model import Finding, Related, Severity, Span
from vllm_lint.report import ReportContext, markdown


def finding(line: int, message: str = "plain", path: str = "deploy/vllm.yaml") -> Finding:
    """A finding in the current folder (the tests pass it as the workspace)."""
    return Finding(
        rule="VL101",
        slug="replayssm-no-spec-decode",
        severity=Severity.ERROR,
        message=message,
        span=Span(path, line, 3, line, 9),
        fix="do | this",
        related=(Related(Span(path, line + 1, 3, line + 1, 9), "set here"),),
        help_uri="https://example.invalid/rules.md#vl101",
    )


def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ")][1:]  # after the header


def test_every_finding_is_one_row_with_its_rule_link() -> None:
    text = markdown.render([finding(3), finding(7)], ReportContext(1, 1, workspace="."))
    assert text.startswith("## vllm-lint\n\n**2 error(s)**, 0 warning(s), 0 info in 1 file(s)")
    table = rows(text)
    assert len(table) == 2
    assert table[0].startswith(
        "| :x: error | [VL101 replayssm-no-spec-decode](https://example.invalid/rules.md#vl101) | "
        "deploy/vllm.yaml:3:3 | plain<br>related: deploy/vllm.yaml:4:3 set here<br>"
    )
    assert table[0].endswith("**fix:** do \\| this |")


def test_text_from_a_linted_file_cannot_change_the_markup() -> None:
    hostile = "a|b\nc\r\n<script>x</script> `code` [link](http://x) *bold* _u_ ~s~ \\"
    text = markdown.render([finding(3, hostile)], ReportContext(1, 1, workspace="."))
    table = rows(text)
    assert len(table) == 1
    cells = table[0].replace("\\|", "").split(" | ")
    assert len(cells) == 4
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "http://" not in text  # GitHub would link a bare address: a zero-width space stops it
    assert (
        "a\\|b<br>c<br>&lt;script&gt;x&lt;/script&gt; \\`code\\` \\[link\\](http\u200b://x) "
        "\\*bold\\* \\_u\\_ \\~s\\~ \\\\" in table[0]
    )


def test_lines_link_to_the_commit_when_the_workspace_is_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "owner/repo")
    monkeypatch.setenv("GITHUB_SHA", "abc123")
    monkeypatch.chdir(tmp_path)
    context = ReportContext(1, 1, workspace=str(tmp_path))
    assert "](https://github.com/owner" not in markdown.render([finding(3)], context)
    (tmp_path / ".git").mkdir()
    text = markdown.render([finding(3, path="deploy/a b.yaml")], context)
    base = "https://github.com/owner/repo/blob/abc123/deploy/a%20b.yaml"
    assert f"| [deploy/a b.yaml:3:3]({base}#L3) |" in text
    assert f"related: [deploy/a b.yaml:4:3]({base}#L4) set here" in text


def test_the_summary_stays_under_githubs_one_mib_limit(tmp_path: Path) -> None:
    many = [finding(n, "x" * 200) for n in range(1, 20001)]
    text = markdown.render(many, ReportContext(1, 1, workspace=str(tmp_path)))
    assert len(text.encode()) <= 1024 * 1024
    shown = len(rows(text))
    assert 1000 < shown < 20000
    assert text.rstrip().endswith(
        f"{20000 - shown} more finding(s) not shown: a step summary holds at most 1 MiB."
    )


def test_the_annotation_note_appears_only_when_the_cap_hid_findings(tmp_path: Path) -> None:
    context = ReportContext(1, 1, annotate_limit=1, workspace=str(tmp_path))
    capped = markdown.render([finding(1), finding(2)], context, annotations=True)
    assert "1 of 2 findings are annotated on their lines" in capped
    assert "annotated" not in markdown.render([finding(1), finding(2)], context)
    assert "annotated" not in markdown.render([finding(1)], context, annotations=True)


def test_format_markdown_and_summary_file_on_a_real_file(tmp_path: Path) -> None:
    write(
        tmp_path,
        "nemotron.yaml",
        """
        model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
        use-replayssm: true
        mamba-backend: cpu
        """,
    )
    expected = run_cli("--format", "json", "--vllm-version", "0.31.0", ".", cwd=tmp_path)
    wanted = expected.findings()
    assert wanted, expected.out
    run = run_cli("--format", "markdown", "--vllm-version", "0.31.0", ".", cwd=tmp_path)
    assert len(rows(run.out)) == len(wanted)
    first = wanted[0]
    assert f"| {first['path']}:{first['line']}:{first['col']} |" in run.out
    summary = tmp_path.parent / f"{tmp_path.name}-summary.md"  # outside the linted folder
    summary.write_text("kept\n", encoding="utf-8")
    run_cli("--summary-file", str(summary), "--vllm-version", "0.31.0", ".", cwd=tmp_path)
    assert summary.read_text("utf-8") == "kept\n" + run.out
