"""The language server: each request lints the editor's buffer through the one pipeline
(`pipeline.lint_buffer`, the path `--stdin-filename` takes) with the configuration and release
pins read afresh, so an edited `.vllm-lint.yaml`, rule pack or pin file counts at the next
keystroke; then findings become diagnostics, autofixes code actions, and a flag under the
cursor a hover with its history (argv/history.py, as `vllm-lint flag` prints it)."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path, uri_scheme

from vllm_lint import __version__
from vllm_lint.model import Finding, Invocation, ReleaseChoice, Severity, Span
from vllm_lint.options import Options
from vllm_lint.pipeline import Results, lint_buffer, reported
from vllm_lint.report.escape import printable

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}
# a flag as written (`--max-model-len`), a JSON key or a Python keyword (`max_model_len`)
_WORD = re.compile(r"-{0,2}[A-Za-z][A-Za-z0-9_-]*")
_FLAG = re.compile(r"--[A-Za-z][A-Za-z0-9-]*")
SUPPRESS_REASON = "REASON: say why this launch is right"


class Linted(NamedTuple):
    """One lint of a buffer: the path as the CLI names it from `folder` (its working folder)."""

    uri: str
    folder: Path
    path: str
    lines: list[str]
    options: Options
    results: Results
    findings: list[Finding]


def make_server() -> LanguageServer:
    server = LanguageServer("vllm-lint", __version__)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        _publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        _publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: LanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        # a configuration, rule pack or pin changed: every open buffer is judged again
        for uri in list(ls.workspace.text_documents):
            _publish(ls, uri)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        try:
            linted = _lint(ls, params.text_document.uri)
        except NotLinted:
            return None
        return _hover(linted, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["-"]))
    def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        try:
            linted = _lint(ls, params.text_document.uri)
        except NotLinted:
            return lsp.CompletionList(is_incomplete=False, items=[])
        return _completion(linted, params.position)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_action(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        try:
            linted = _lint(ls, params.text_document.uri)
        except NotLinted:
            return []
        return _actions(linted, params.range)

    return server


def serve() -> None:
    make_server().start_io()


# -- one lint of a buffer -------------------------------------------------------------------


def _folder(ls: LanguageServer, file: Path) -> Path:
    """The workspace folder holding `file` (the innermost), else the root, else its folder:
    the CLI's working folder, which bounds what is read and where configurations are found."""
    roots = [Path(p) for f in ls.workspace.folders.values() if (p := to_fs_path(f.uri))]
    if ls.workspace.root_path:
        roots.append(Path(ls.workspace.root_path))
    holding = [r for r in roots if file == r or r in file.parents]
    return max(holding, key=lambda r: len(r.parts)) if holding else file.parent


class NotLinted(Exception):
    """A buffer the CLI could not lint either: not a file (`untitled:`), or a broken
    configuration (the message names the file and line, as the CLI's exit 2 does)."""


def _lint(ls: LanguageServer, uri: str) -> Linted:
    from vllm_lint.config import ConfigError, Configs
    from vllm_lint.files.budget import file_seconds

    doc = ls.workspace.get_text_document(uri)
    if uri_scheme(uri) != "file":
        raise NotLinted("")  # its kind, configuration and release pins depend on a path
    file = Path(doc.path)
    folder = _folder(ls, file)
    os.chdir(folder)  # as the CLI run there: paths, configurations and pins relative to it
    path = os.path.relpath(file, folder)
    # read afresh on every request: an edited configuration or rule pack counts at once
    options = Options(root=folder, configs=Configs(discover=True), time_budget=file_seconds())
    source = doc.source
    try:
        results = lint_buffer(path, source.encode("utf-8"), options)
        findings = [f for f in reported(results, options) if f.span.path == path]
    except ConfigError as exc:
        raise NotLinted(f"vllm-lint: error: {exc}") from None  # as the CLI says it
    return Linted(uri, folder, path, source.split("\n"), options, results, findings)


def _publish(ls: LanguageServer, uri: str) -> None:
    try:
        linted = _lint(ls, uri)
        diagnostics = [_diagnostic(linted, f) for f in linted.findings]
    except NotLinted as exc:  # said where the user looks, as one diagnostic at the top
        start = lsp.Position(0, 0)
        said = [lsp.Diagnostic(lsp.Range(start, start), printable(str(exc)), source="vllm-lint")]
        diagnostics = said if str(exc) else []
    ls.text_document_publish_diagnostics(
        lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
    )


# -- positions: the pipeline counts characters from 1, LSP UTF-16 units from 0 --------------


def _units(line: str, col: int) -> int:
    return len(line[: max(col - 1, 0)].encode("utf-16-le")) // 2


def _column(line: str, units: int) -> int:
    """The 1-based character column of a UTF-16 offset into `line`."""
    count = 0
    for index, ch in enumerate(line):
        if count >= units:
            return index + 1
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line) + 1


def _range(lines: Sequence[str], span: Span) -> lsp.Range:
    def line(n: int) -> str:
        return lines[n - 1] if 0 < n <= len(lines) else ""

    start = lsp.Position(span.line - 1, _units(line(span.line), span.col))
    end = lsp.Position(span.end_line - 1, _units(line(span.end_line), span.end_col))
    return lsp.Range(start, end)


def _diagnostic(linted: Linted, finding: Finding) -> lsp.Diagnostic:
    message = finding.message + (f"\n{finding.fix}" if finding.fix else "")
    if finding.release is not None:
        message += f"\n(vLLM {finding.release.version}: {finding.release.reason})"
    related = [
        lsp.DiagnosticRelatedInformation(
            lsp.Location(
                (linted.folder / r.span.path).resolve().as_uri(), _range(linted.lines, r.span)
            ),
            printable(r.note),
        )
        for r in finding.related
        if r.span.path == linted.path
    ]
    return lsp.Diagnostic(
        range=_range(linted.lines, finding.span),
        message=printable(message, keep_newlines=True),
        severity=_SEVERITY.get(finding.severity, lsp.DiagnosticSeverity.Warning),
        code=finding.rule,
        code_description=lsp.CodeDescription(href=finding.help_uri) if finding.help_uri else None,
        source="vllm-lint",
        related_information=related or None,
    )


# -- hover and completion ------------------------------------------------------------------


def _word_at(linted: Linted, position: lsp.Position) -> tuple[str, int, int] | None:
    """The flag-like word under the cursor and its character columns (0-based, end excl.)."""
    if position.line >= len(linted.lines):
        return None
    line = linted.lines[position.line]
    at = _column(line, position.character) - 1
    for match in _WORD.finditer(line):
        if match.start() <= at <= match.end():
            return match.group(), match.start(), match.end()
    return None


def _release_at(linted: Linted, line: int) -> ReleaseChoice:
    """The release the launch written on `line` (1-based) is judged for, else the file's."""
    from vllm_lint import release

    for result in linted.results:
        for invocation in result.invocations:
            if _on_line(invocation, linted.path, line):
                return release.for_launch(invocation, linted.options)
    return release.for_file(linted.path, linted.options)


def _on_line(invocation: Invocation, path: str, line: int) -> bool:
    spans = [t.span for t in invocation.argv]
    spans += [invocation.anchor] if invocation.anchor is not None else []
    return any(s.path == path and s.line <= line <= s.end_line for s in spans)


def _hover(linted: Linted, position: lsp.Position) -> lsp.Hover | None:
    from vllm_lint.argv import catalog, history
    from vllm_lint.flag_command import history_lines
    from vllm_lint.release import catalog_release

    found = _word_at(linted, position)
    if found is None:
        return None
    word, start, end = found
    name = history.canonical(word)
    events = history.history(name)
    if not events:
        return None
    choice = _release_at(linted, position.line + 1)
    spec = catalog.catalog_for(catalog_release(choice.version)).resolve(name)
    what = f"vLLM {choice.version} has no {name}" if spec is None else _describe(spec[0])
    text = [
        f"**{name}** — {what}",
        "",
        f"Judged for vLLM {choice.version} ({choice.reason}).",
        "",
        "```text",
        *history_lines(name, events),
        "```",
    ]
    where = lsp.Range(lsp.Position(position.line, start), lsp.Position(position.line, end))
    content = lsp.MarkupContent(lsp.MarkupKind.Markdown, printable("\n".join(text), True))
    return lsp.Hover(contents=content, range=where)


def _describe(spec: Any) -> str:
    parts = [f"type {spec.type}"]
    if spec.is_bool:
        parts = ["a switch"]
    if spec.choices:
        parts.append(f"one of {', '.join(spec.choices)}")
    parts.append(f"default {spec.default!r}")
    if spec.config_field:
        parts.append(f"sets {spec.config_field}")
    if spec.deprecated:
        parts.append(f"deprecated: {spec.deprecated}")
    return "; ".join(parts)


def _completion(linted: Linted, position: lsp.Position) -> lsp.CompletionList:
    from vllm_lint.argv import catalog
    from vllm_lint.release import catalog_release

    found = _word_at(linted, position)
    if found is None:
        return lsp.CompletionList(is_incomplete=False, items=[])
    word, start, end = found
    choice = _release_at(linted, position.line + 1)
    flags = catalog.catalog_for(catalog_release(choice.version)).flags
    where = lsp.Range(lsp.Position(position.line, start), lsp.Position(position.line, end))
    if not word.startswith("-"):
        return _json_keys(linted, position, word, flags, where)
    items = [
        lsp.CompletionItem(
            label=name,
            kind=lsp.CompletionItemKind.Property,
            detail=f"vLLM {choice.version}: {_describe(spec)}",
            text_edit=lsp.TextEdit(where, name),
            deprecated=bool(spec.deprecated) or None,
        )
        for name, spec in sorted(flags.items())
        if name.startswith(word) or word in ("-", "--")
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


def _json_keys(
    linted: Linted, position: lsp.Position, word: str, flags: Any, where: lsp.Range
) -> lsp.CompletionList:
    """The keys of the JSON flag written last before the cursor (on its line or the three
    above: a YAML list puts the value on the next line), e.g. `--speculative-config '{"me`."""
    line = linted.lines[position.line]
    before = "\n".join(linted.lines[max(position.line - 3, 0) : position.line])
    before += "\n" + line[: _column(line, position.character) - 1]
    named = _FLAG.findall(before)
    spec = flags.get(named[-1]) if named else None
    keys = spec.json_keys if spec is not None and spec.json_keys is not None else ()
    items = [
        lsp.CompletionItem(
            label=key,
            kind=lsp.CompletionItemKind.Field,
            detail=f"{spec.name} key" if spec is not None else None,
            text_edit=lsp.TextEdit(where, key),
        )
        for key in sorted(keys)
        if key.startswith(word)
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


# -- code actions ---------------------------------------------------------------------------


def _actions(linted: Linted, wanted: lsp.Range) -> list[lsp.CodeAction]:
    actions: list[lsp.CodeAction] = []
    for finding in linted.findings:
        where = _range(linted.lines, finding.span)
        if where.end.line < wanted.start.line or where.start.line > wanted.end.line:
            continue
        diagnostic = _diagnostic(linted, finding)
        fix = finding.autofix
        if fix is not None and all(e.span.path == linted.path for e in fix.edits):
            edits = [lsp.TextEdit(_range(linted.lines, e.span), e.replacement) for e in fix.edits]
            actions.append(
                lsp.CodeAction(
                    title=f"{printable(fix.title)} ({fix.applicability})",
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=fix.safe,
                    edit=lsp.WorkspaceEdit(changes={linted.uri: edits}),
                )
            )
        suppress = _suppression(linted, finding)
        if suppress is not None:
            actions.append(
                lsp.CodeAction(
                    title=f"Suppress {finding.rule} here (with a reason)",
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=lsp.WorkspaceEdit(changes={linted.uri: [suppress]}),
                )
            )
    return actions


def _suppression(linted: Linted, finding: Finding) -> lsp.TextEdit | None:
    """A `# vllm-lint: ignore[ID] reason` line above the finding's line (rules/suppress.py:
    it silences its own line and the next), indented as that line; none in a notebook, whose
    lines are JSON strings."""
    if linted.path.endswith(".ipynb") or not 0 < finding.span.line <= len(linted.lines):
        return None
    line = linted.lines[finding.span.line - 1]
    indent = line[: len(line) - len(line.lstrip())]
    text = f"{indent}# vllm-lint: ignore[{finding.rule}] {SUPPRESS_REASON}\n"
    at = lsp.Position(finding.span.line - 1, 0)
    return lsp.TextEdit(lsp.Range(at, at), text)
