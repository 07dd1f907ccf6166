"""The pipeline: which files, read once and prefiltered; each file's launches found by the
readers (`sources/`), and each launch's effective settings (`effective/`) judged by the rules
of its release (`rules/`). Findings are made at one boundary (`rules/findings.py`)."""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from vllm_lint.files import reader, sniff
from vllm_lint.files.collect import LinkOut
from vllm_lint.model import FileResult, Finding, Invocation, Problem, Span, Token, input_problem
from vllm_lint.options import Options

if TYPE_CHECKING:
    from vllm_lint.effective.settings import Settings
    from vllm_lint.sources.config_file import ConfigFile

# Only what every run needs is imported here: a file that cannot launch vLLM costs a read and
# a byte search. The parsers, catalogs and rules load when a file is worth it.


class Results(list[FileResult]):
    """The results of the files that have something to say, and counts over every file: a file
    with nothing to say is counted, not kept, so that memory does not grow with the repo."""

    files_checked = 0
    invocations = 0


def lint_paths(paths: Iterable[str], options: Options) -> Results:
    """Lint files in order; a config file that a linted launch line names is checked there,
    with that launch's release and flags, not a second time on its own."""
    results = Results()
    dropped = 0  # launches counted, then let go (`keep_invocations`)
    for path in paths:
        if options.config_for(path).excludes(path):
            continue
        if isinstance(path, LinkOut):
            what = "a folder linked to outside the linted folder; not walked"
            result = _input_problem(str(path), "VL921", what)
        else:
            result = lint_file(path, options)
        results.files_checked += 1
        if not options.keep_invocations and not result.standalone_config:
            dropped += len(result.invocations)
            result.invocations = []
            result.settings = []
        if (
            result.findings
            or result.invocations
            or result.suppressions
            or result.configs_named
            or result.standalone_config
        ):
            results.append(result)
    named = {_real(p) for r in results for p in r.configs_named}
    for result in results:
        if named and result.standalone_config and _real(result.path) in named:
            result.findings.clear()
            result.invocations.clear()
            result.settings.clear()
    results.invocations = dropped + sum(len(r.invocations) for r in results)
    return results


def lint_buffer(path: str, data: bytes, options: Options) -> Results:
    """One file whose bytes are given, not read: stdin with `--stdin-filename`, an editor's
    buffer (the language server). `path` decides its kind, configuration and release, as if
    the file were there."""
    results = Results()
    if not options.config_for(path).excludes(path):
        result = lint_bytes(path, data, options)
        results.files_checked = 1
        results.invocations = len(result.invocations)
        results.append(result)
    return results


def reported(results: Iterable[FileResult], options: Options) -> list[Finding]:
    """The findings to report, sorted: inline suppressions applied, then the configuration's
    select / ignore / per-path ignores."""
    results = list(results)
    findings = [f for r in results for f in r.findings]
    if any(r.suppressions for r in results) or findings:
        from vllm_lint.rules import suppress
        from vllm_lint.rules.findings import from_problems

        counts = options.suppressions_apply  # `--ignore-suppressions`: these count for nothing
        scanned = {r.path: r.suppressions if counts(r.path) else [] for r in results}

        def read(path: str) -> str | None:
            if not counts(path):
                return None
            return reader.read_text(path, options.max_bytes(path), inside=options.root)

        findings, problems = suppress.apply(findings, scanned, read)
        findings += from_problems(problems)
    selected = (
        f for f in findings if options.config_for(f.span.path).selects(f.rule, f.slug, f.span.path)
    )
    return _once(sorted(selected, key=lambda f: f.sort_key()))


def _once(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and place: a script the linted Dockerfile runs is also linted on
    its own, and both see the same flag (the first, sorted, is kept)."""
    seen: set[tuple[str, Span, str]] = set()
    kept = []
    for finding in findings:
        key = (finding.rule, finding.span, finding.message)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _real(path: str) -> str:
    """Where a path really leads (links resolved; a link loop or a NUL byte left as is)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def lint_file(path: str, options: Options) -> FileResult:
    kind = sniff.kind_of(path)
    if kind is sniff.Kind.SKIP or not options.config_for(path).reads(kind):
        return FileResult(path)
    if os.path.islink(path) and not reader.is_inside(path, options.root):
        return _input_problem(path, "VL921", "a link to outside the linted folder; not followed")
    try:
        limit = options.max_bytes(path)
        data = reader.read_bytes(path, limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = getattr(exc, "strerror", None) or str(exc)
        return _input_problem(path, "VL902", f"cannot read the file: {why}; not checked")
    if len(data) > limit:
        if sniff.worth_parsing(data, kind):
            return _input_problem(path, "VL902", f"larger than {limit} bytes; not checked")
        return FileResult(path)
    return lint_bytes(path, data, options)


def lint_bytes(path: str, data: bytes, options: Options) -> FileResult:
    """Lint a file's bytes. A file the prefilter passes over costs a byte search; the rest runs
    within the time budget (files/budget.py), whose timer is not worth arming for the others."""
    wide = _wide_encoding(data)
    if wide is not None:  # UTF-16/32: look at it as UTF-8
        try:
            data = data.decode(wide).encode("utf-8")
        except UnicodeDecodeError:
            if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
                return _input_problem(path, "VL902", "invalid UTF-16/32 text; not checked")
            # no BOM: only NUL bytes that looked like UTF-16; read on as bytes
    worth = sniff.worth_parsing(data, sniff.kind_of(path))
    if not worth and b"vllm-lint" not in data:
        return FileResult(path)
    if not options.time_budget:
        return _lint_data(path, data, worth, options)
    from vllm_lint.files.budget import TooSlow, time_limit

    try:
        with time_limit(options.time_budget):
            return _lint_data(path, data, worth, options)
    except TooSlow:
        what = f"linting it took more than {options.time_budget:g} s; not checked"
        return _input_problem(path, "VL908", what)


def _lint_data(path: str, data: bytes, worth: bool, options: Options) -> FileResult:
    result = FileResult(path)
    if b"vllm-lint" in data:
        from vllm_lint.rules import suppress

        result.suppressions = suppress.scan(path, data.decode("utf-8", errors="replace"))
    if not worth:
        return result
    if sniff.is_binary(data):
        return _input_problem(path, "VL902", "binary data (NUL bytes); not checked")
    try:
        text = _decode(data)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return _input_problem(
            path, "VL902", f"not valid UTF-8 (byte {exc.start}); not checked", line
        )
    check_file(result, text, options)
    return result


def _wide_encoding(data: bytes) -> str | None:
    """UTF-16 or UTF-32 as YAML 1.2 (section 5.2) detects it: by a byte order mark, else by
    the NUL bytes around the first character (a file saved as UTF-16 without a BOM would
    otherwise be skipped: `vllm` never appears in it as bytes). None for UTF-8."""
    head = data[:4]
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(head) == 4 and head[:3] == b"\0\0\0" and head[3]:
        return "utf-32-be"
    if len(head) == 4 and head[0] and head[1:] == b"\0\0\0":
        return "utf-32-le"
    if len(head) >= 2 and not head[0] and head[1]:
        return "utf-16-be"
    if len(head) >= 2 and head[0] and not head[1]:
        return "utf-16-le"
    return None


def _decode(data: bytes) -> str:
    """UTF-8 (a BOM is dropped), or UTF-16/32 when a BOM says so, as YAML allows."""
    for bom, codec in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec)
    return data.decode("utf-8-sig")


def _input_problem(path: str, rule_id: str, what: str, line: int = 1) -> FileResult:
    from vllm_lint.rules.findings import from_problem

    return FileResult(path, [from_problem(input_problem(path, rule_id, what, line))])


def check_file(result: FileResult, text: str, options: Options) -> None:
    """Fill `result` with the invocations of a decoded file and their findings. The file is
    read for the release its repo pins (before any launch in it names one)."""
    from vllm_lint import release as releases
    from vllm_lint.argv.catalog import Catalog, catalog_for
    from vllm_lint.rules.findings import from_problems
    from vllm_lint.sources import config_file
    from vllm_lint.sources.registry import extract

    path = result.path

    def catalog() -> Catalog:
        return catalog_for(releases.catalog_release(releases.for_file(path, options).version))

    extracted = extract(path, text, sniff.kind_of(path), catalog, options.root)
    result.findings.extend(from_problems(extracted.problems))
    result.standalone_config = extracted.standalone_config
    for invocation in extracted.invocations:
        config = config_file.read(invocation, options)
        settings, findings = _judged(invocation, options, config)
        result.invocations.append(invocation)
        result.settings.append(settings)
        result.findings.extend(findings)
        if config.path is not None:
            result.configs_named.append(config.path)
    if any(f.autofix is not None for f in result.findings):
        from vllm_lint import fixer

        result.findings = fixer.vet(result.findings, path, text)


def check(invocation: Invocation, options: Options) -> list[Finding]:
    """The findings of one launch: the flag problems of its argv, then the rules it violates."""
    from vllm_lint.sources import config_file

    return _judged(invocation, options, config_file.read(invocation, options))[1]


def settings_of(invocation: Invocation, options: Options) -> tuple[Settings, list[Problem]]:
    """The effective settings of one launch as the pipeline builds them: its `--config` file
    read (`sources/config_file.py`), then `effective/`."""
    from vllm_lint.effective.build import settings_for
    from vllm_lint.sources import config_file

    return settings_for(invocation, options, config_file.read(invocation, options))


def _judged(
    invocation: Invocation, options: Options, config: ConfigFile
) -> tuple[Settings, list[Finding]]:
    """The settings of one launch and its findings: the flag problems, then the rules, one
    finding per vLLM raise site (rules/findings.py)."""
    from vllm_lint.effective.build import settings_for
    from vllm_lint.rules.evaluate import evaluate
    from vllm_lint.rules.findings import from_problems, one_per_site

    settings, problems = settings_for(invocation, options, config)
    findings = from_problems(problems)
    if settings.judged:
        findings += evaluate(settings, options.config_for(invocation.path).rules)
    return settings, one_per_site(findings)


def check_command_line(
    argv: str,
    release: str,
    env: dict[str, str] | None = None,
    path: str = "<command line>",
    options: Options | None = None,
) -> list[Finding]:
    """Lint the arguments of one `vllm serve` written as a shell line (rule examples, tools)."""
    forced = (options or Options()).forcing(release)
    return check(command_line_invocation(argv, env, path), forced)


def check_python(code: str, release: str, options: Options | None = None) -> list[Finding]:
    """Lint the vLLM launches of a Python snippet (rule examples of the Python API)."""
    from vllm_lint.argv.catalog import catalog_for
    from vllm_lint.release import catalog_release
    from vllm_lint.sources.registry import extract

    forced = (options or Options()).forcing(release)
    found = extract(
        "<python>", code, sniff.Kind.PYTHON, lambda: catalog_for(catalog_release(release))
    )
    return [f for inv in found.invocations for f in check(inv, forced)]


def command_line_invocation(
    argv: str, env: dict[str, str] | None = None, path: str = "<command line>"
) -> Invocation:
    """The invocation of one `vllm serve` written as a shell line."""
    from vllm_lint.files.textpos import FilePositions
    from vllm_lint.read.shell import Lexer

    words = [
        w for command in Lexer(argv, FilePositions(path, argv)).commands() for w in command.words
    ]
    from vllm_lint.sources.json_parts import located

    span = Span(path, 1, 1, 1, 2)
    invocation = Invocation(
        path=path,
        argv=tuple(words),
        env={name: Token(value, span) for name, value in (env or {}).items()},
        origin="command line",
    )
    return located([invocation], path, argv)[0]  # a JSON word's keys at their places, as in a file
