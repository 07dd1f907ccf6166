"""The one way out, as a contract: every format in `REPORTERS` — and `--diff`, `--statistics`,
the job summary and the SARIF file — gets one shared set of hostile findings and a real file with
a hostile name and hostile text, and its output must keep its medium's safety properties
(report/gate.py). The formats are taken from the registry, never from a list written here: a
format added tomorrow is checked the day it is added."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from vllm_lint.model import Autofix, Edit, Finding, Related, ReleaseChoice, Severity, Span
from vllm_lint.report import REPORTERS, ReportContext, gate, markdown, medium, sarif
from vllm_lint.report.statistics import report as statistics

# What a hostile pull request writes into names and values.
HOSTILE = [
    "\x1b[31mred\x1b[0m \x1b]0;title\x07 \x1b[2J",
    "bidi \u202eevil\u2066 \u200fx\u2028y",
    "::add-mask::secret",
    "::warning file=x.yaml::forged",
    "  ::error::indented",
    "mid ##[error]forged ##VSO[task.setvariable variable=x]1",
    "[link](http://evil.example) <img src=x onerror=alert(1)> **b** @octocat #12",
    "bare http://evil.example and www.evil.example",
    "line\nbreak\r\n::notice::next line",
    "bad\udcffbyte \udc80",
]
TEXT = " | ".join(HOSTILE)
NAME = "deploy/" + "".join(h.replace("\n", "_") for h in HOSTILE[:3]) + "\udcff.yaml"


def _finding(number: int, text: str) -> Finding:
    span = Span(f"deploy/{text.replace('/', '_')}-{number}.yaml", 3, 5, 3, 9)
    edit = Edit(span, "x", text)
    return Finding(
        rule=f"VL{100 + number}",
        slug="hostile-" + text,
        severity=list(Severity)[number % 3],
        message=text,
        span=span,
        fix=text,
        related=(Related(span._replace(path=NAME), text),),
        release=ReleaseChoice(text, text),
        help_uri=("http://evil.example/" if number % 2 else "javascript:alert(1)//") + text,
        autofix=Autofix(text, (edit,), safe=bool(number % 2)),
    )


FINDINGS = [_finding(n, text) for n, text in enumerate([*HOSTILE, TEXT])]

# -- what each medium guarantees -----------------------------------------------------------

_OWN_COMMAND = re.compile(
    r"::(error|warning|notice)( [^:]*)?::|::stop-commands::[0-9a-f]{32}$|::[0-9a-f]{32}::$"
)
_ALLOWED = {
    "terminal": "\n\t",
    "log": "\n",
    "json": "\n",
    "sarif": "\n\u200b",  # help.markdown is Markdown: a zero-width space stops a mention
    "markdown": "\n\u200b",
}


def assert_safe(text: str, where: str, medium_name: str) -> None:
    """`text`, written for `medium_name`, keeps the medium's properties (gate.py)."""
    text.encode("utf-8")  # strict: no undecodable byte of a file name left as a surrogate
    allowed = _ALLOWED[medium_name]
    bad = sorted(
        {ch for ch in text if ch not in allowed and unicodedata.category(ch)[0] in "CZ"} - {" "}
    )
    assert not bad, f"{where}: {[hex(ord(c)) for c in bad]} raw in\n{text}"
    assert not re.search(r"##(vso)?\[", text, re.IGNORECASE), f"{where}: `##[` raw in\n{text}"
    for line in text.splitlines():
        if line.lstrip().startswith("::"):
            # only the reporter's own commands; properties escape `:`, so the command is the
            # reporter's whatever its message holds
            own = medium_name == "log" and _OWN_COMMAND.match(line)
            assert own, f"{where}: a workflow command from the repo: {line!r}"
    if medium_name == "markdown":
        assert not re.search(r"<(?!br>)", text), f"{where}: HTML in\n{text}"
        targets = re.findall(r"\]\(([^)]*)\)", text.replace("\\]", "").replace("\\(", ""))
        assert all(t.startswith("https://") for t in targets), f"{where}: {targets}"
        shown = re.sub(r"\]\(https://[^)\s]*\)", "]()", text)  # outside https link targets
        assert not re.search(r"@octocat|http://|www\.evil|javascript:", shown), text


def assert_safe_json(text: str, where: str, medium_name: str) -> None:
    """JSON as printed keeps the properties (its own escaping writes controls as `\\u…`); a
    value holds no `##[` and no lone surrogate, and no link but https. SARIF, which people read
    in code scanning, has its values printable too; `--format json` keeps them exact."""
    assert_safe(text, where, medium_name)
    for value in _strings(json.loads(text)):
        value.encode("utf-8")
        assert not re.search(r"##(vso)?\[", value, re.IGNORECASE), f"{where}: {value!r}"
        assert not value.startswith(("javascript:", "http://")), value  # links: https only
        if medium_name == "sarif":
            assert_safe(value, f"{where}: {value!r}", medium_name)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _check(text: str, where: str, medium_name: str) -> None:
    if medium_name in ("json", "sarif"):
        assert_safe_json(text, where, medium_name)
    else:
        assert_safe(text, where, medium_name)


# -- every format of the registry, on findings made by hand ---------------------------------


def test_every_format_names_a_medium_the_gate_knows() -> None:
    assert list(REPORTERS), "the registry is empty"
    for name in REPORTERS:
        assert medium(name) in gate.MEDIA, name


@pytest.mark.parametrize("name", list(REPORTERS))
def test_every_format_writes_hostile_findings_safely(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    context = ReportContext(files_checked=1, invocations=1, workspace=str(tmp_path))
    REPORTERS[name](FINDINGS, out, context)
    assert out.getvalue(), name
    _check(out.getvalue(), name, medium(name))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_statistics_writes_hostile_findings_safely(fmt: str) -> None:
    out = io.StringIO()
    statistics(FINDINGS, out, ReportContext(1, 1), fmt)
    _check(out.getvalue(), f"--statistics --format {fmt}", "json" if fmt == "json" else "terminal")


def test_the_job_summary_and_the_sarif_file_are_safe(tmp_path: Path) -> None:
    context = ReportContext(1, 1, workspace=str(tmp_path))
    summary, report = tmp_path / "summary.md", tmp_path / "out.sarif"
    markdown.append_summary(str(summary), FINDINGS, context, annotations=True)
    sarif.write_file(str(report), FINDINGS, context)
    _check(summary.read_text("utf-8"), "job summary", "markdown")
    _check(report.read_text("utf-8"), "--sarif-file", "sarif")


# -- the real command line, on a real file whose name and text are hostile -------------------

SCRIPT = (
    "#!/bin/sh\n"
    "# ::add-mask::secret \x1b]0;title\x07 [x](http://evil.example) @octocat\n"
    'vllm serve Qwen/Qwen3-8B --use-v2-block-manager --served-model-name "a\x1b[31m##[error]x'
    '\u202e::warning::y"\n'
    "::warning::context line\n"
    "  ::error::indented ##vso[task.complete]\n"
)
FILE_NAME = b"ev\xff il ::add-mask::x ##[error]y \x1b[2J \xe2\x80\xae @octocat [l](http:x).sh"


@pytest.fixture
def hostile_repo(tmp_path: Path) -> Path:
    if sys.platform != "linux":
        pytest.skip("a file name that is not UTF-8 needs a POSIX file system")
    with open(os.path.join(os.fsencode(tmp_path), FILE_NAME), "wb") as handle:
        handle.write(SCRIPT.encode("utf-8"))
    return tmp_path


def _cli(root: Path, *args: str) -> str:
    run = run_cli("--vllm-version", "0.9.2", *args, ".", cwd=root)
    assert run.code in (0, 1), (run.code, run.err)
    assert_safe(run.err, f"{args} stderr", "terminal")
    return run.out


@pytest.mark.parametrize("name", list(REPORTERS))
def test_every_format_on_a_hostile_file_through_the_cli(name: str, hostile_repo: Path) -> None:
    out = _cli(hostile_repo, "--format", name)
    assert "VL" in out, out
    _check(out, f"--format {name}", medium(name))


def test_diff_prints_hostile_text_and_names_safely(hostile_repo: Path) -> None:
    out = _cli(hostile_repo, "--diff")
    assert out.startswith("--- a/ev\\udcff il ") and "-vllm serve" in out, out
    assert_safe(out, "--diff", "terminal")


def test_statistics_summary_and_sarif_file_through_the_cli(hostile_repo: Path) -> None:
    summary, report = hostile_repo.parent / "summary.md", hostile_repo.parent / "out.sarif"
    out = _cli(hostile_repo, "--statistics", "--summary-file", str(summary))
    assert_safe(out, "--statistics", "terminal")
    _cli(hostile_repo, "--format", "github", "--sarif-file", str(report))
    _check(summary.read_text("utf-8"), "--summary-file", "markdown")
    document = report.read_text("utf-8")
    _check(document, "--sarif-file", "sarif")
    uri = json.loads(document)["runs"][0]["results"][0]["locations"][0]
    # the file's own bytes, percent-encoded: code scanning finds the very file
    assert uri["physicalLocation"]["artifactLocation"]["uri"].startswith("ev%FF%20il%20")


# -- nothing outside report/ reaches a reporter past the gate ---------------------------------

# What code outside report/ may use of a format's module: the gated ways out, and helpers that
# take no finding (escaping, paths).
_GATED = {
    "write_file",  # sarif: through REPORTERS
    "append_summary",  # markdown: through the gate
    "cell",  # markdown: escapes one string for a table cell
    "escape_data",
    "escape_property",
    "workspace_path",
    "workspace_root",
    "MEDIUM",
}
_FORMAT_MODULES = {"text", "concise", "json_format", "github", "sarif", "markdown"}


def test_no_code_outside_the_report_package_calls_a_reporter_directly() -> None:
    import ast

    from conftest import REPO

    package = REPO / "hooks" / "vllm_lint"
    for path in package.rglob("*.py"):
        if path.parent.name == "report":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        aliases: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                tail = node.module.rsplit(".", 1)[-1]
                if node.module.startswith("vllm_lint.report.") and tail in _FORMAT_MODULES:
                    used = {a.name for a in node.names} - _GATED
                    assert not used, f"{path.name}: imports {used} from {node.module}"
                if node.module == "vllm_lint.report":
                    aliases |= {a.asname or a.name for a in node.names if a.name in _FORMAT_MODULES}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                assert node.attr in _GATED, f"{path.name}: {node.value.id}.{node.attr}"


# -- a rule pack's own text (summary, message, fix, url) is the repo's too ---------------------

PACK_TEXT = "\x1b[2J ##[error]pack \u202e [x](http://evil.example) <b>@octocat</b>\n::add-mask::k"


def test_a_rule_packs_text_is_safe_in_every_format(tmp_path: Path) -> None:
    pack = json.loads(
        (
            Path(__file__).parent.parent / "examples/rule-packs/forbid-trust-remote-code.json"
        ).read_text("utf-8")
    )
    rule = pack["rules"][0]
    rule.update(summary=PACK_TEXT, fix=PACK_TEXT, url="https://e.example/x)](http://evil.example")
    rule["message"] = PACK_TEXT + " {model}"
    pack.pop("$schema")
    (tmp_path / "policy.json").write_text(json.dumps(pack))
    (tmp_path / ".vllm-lint.yaml").write_text("extra-rules: [policy.json]\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --trust-remote-code\n")
    for name in REPORTERS:
        out = _cli(tmp_path, "--format", name)
        assert "ORG001" in out, out
        _check(out, f"a rule pack in --format {name}", medium(name))
    document = json.loads(_cli(tmp_path, "--format", "sarif"))
    [entry] = [r for r in document["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "ORG001"]
    markdown_help = entry["help"]["markdown"]  # rendered by code scanning: text, not markup
    assert "<b>" not in markdown_help, markdown_help
    assert not re.search(r"(?<!\\)\]\(http", markdown_help), markdown_help  # `\](` is text
