"""The pipeline for one file: sniff → read → extract → normalize → check."""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import catalog, rules, sniff, suppress, versions, yamlsrc
from .config import Config
from .derive import derive
from .extract import extract, problem
from .grammar import ArgvParser
from .model import FileResult, Finding, Invocation, ReleaseChoice, Span, Token
from .settings import Settings

DEFAULT_MAX_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Options:
    vllm_version: str | None = None  # forces the release for every invocation
    default_version: str | None = None  # used when a file pins none
    root: Path = field(default_factory=Path.cwd)  # nothing outside is read
    max_bytes: int = DEFAULT_MAX_BYTES
    config: Config = field(default_factory=Config)  # selection, per-path ignores, excludes


def lint_paths(paths: Iterable[str], options: Options) -> list[FileResult]:
    """Lint files in order; a config file that a linted launch line names is checked there,
    with that launch's release and flags, not a second time on its own."""
    results = [lint_file(path, options) for path in paths if not options.config.excludes(path)]
    named = {str(Path(p).resolve()) for r in results for p in r.configs_named}
    for result in results:
        if str(Path(result.path).resolve()) in named and result.standalone_config:
            result.findings.clear()
            result.invocations.clear()
    return results


def reported(results: Iterable[FileResult], options: Options) -> list[Finding]:
    """The findings to report, sorted: inline suppressions applied, then the configuration's
    select / ignore / per-path ignores."""
    results = list(results)
    findings = [f for r in results for f in r.findings]
    scanned = {r.path: r.suppressions for r in results}
    findings = suppress.apply(findings, scanned, _read_text)
    selected = (f for f in findings if options.config.selects(f.rule, f.slug, f.span.path))
    return sorted(selected, key=lambda f: f.sort_key())


def _inside(target: Path, root: Path) -> bool:
    return target.is_relative_to(root.resolve())


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(DEFAULT_MAX_BYTES)
    except OSError:
        return None


def lint_file(path: str, options: Options) -> FileResult:
    if sniff.kind_of(path) is sniff.Kind.SKIP:
        return FileResult(path)
    if os.path.islink(path) and not _inside(Path(path).resolve(), options.root):
        return _input_problem(path, "VL921", "a link to outside the linted folder; not followed")
    try:
        with open(path, "rb") as handle:
            data = handle.read(options.max_bytes + 1)
    except OSError as exc:
        return _input_problem(path, "VL902", f"cannot read the file: {exc.strerror or exc}")
    if len(data) > options.max_bytes:
        if sniff.worth_parsing(data):
            return _input_problem(
                path, "VL902", f"larger than {options.max_bytes} bytes; not checked"
            )
        return FileResult(path)
    return lint_bytes(path, data, options)


def lint_bytes(path: str, data: bytes, options: Options) -> FileResult:
    result = FileResult(path)
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):  # UTF-16/32: look at it as UTF-8
        try:
            data = _decode(data).encode("utf-8")
        except UnicodeDecodeError:
            return _input_problem(path, "VL902", "invalid UTF-16/32 text; not checked")
    if b"vllm-lint" in data:
        result.suppressions = suppress.scan(path, data.decode("utf-8", errors="replace"))
    if not sniff.worth_parsing(data):
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
    extracted = extract(
        path, text, sniff.kind_of(path), catalog.catalog_for(_supported(_fallback(options).version))
    )
    result.findings.extend(extracted.findings)
    result.standalone_config = extracted.standalone_config
    for invocation in extracted.invocations:
        result.invocations.append(invocation)
        result.findings.extend(check(invocation, options))
        config = _config_argument(invocation.argv)
        if config is not None and not config.opaque:
            result.configs_named.append(str(Path(invocation.base_dir) / config.text))
    return result


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
    return FileResult(path, [problem(path, rule_id, what, line)])


def _fallback(options: Options) -> ReleaseChoice:
    if options.vllm_version:
        return ReleaseChoice(versions.normalize(options.vllm_version), "--vllm-version")
    if options.default_version:
        return ReleaseChoice(versions.normalize(options.default_version), "configured default")
    newest = versions.newest_known()
    return ReleaseChoice(newest, f"no image tag names a release: assumed the newest known {newest}")


def release_for(invocation: Invocation, options: Options) -> ReleaseChoice:
    if options.vllm_version or invocation.version_hint is None:
        return _fallback(options)
    return invocation.version_hint


def settings_for(invocation: Invocation, options: Options) -> tuple[Settings, list[Finding]]:
    """The effective settings of an invocation and the flag problems met on the way."""
    release = release_for(invocation, options)
    cat = catalog.catalog_for(_supported(release.version))
    parser = ArgvParser(cat, release)
    settings = Settings(release)
    findings: list[Finding] = []
    config = _config_argument(invocation.argv)
    if config is not None and not config.opaque:
        config_argv, problems = _config_argv(config, invocation, options)
        findings += problems
        findings += parser.parse(config_argv, into=settings).findings
    findings += parser.parse(invocation.argv, into=settings).findings
    if invocation.image is not None and not invocation.image.opaque:
        settings.set("image", invocation.image.text, invocation.image.span)
    for name, token in invocation.env.items():
        settings.set(f"env.{name}", token.text, token.span)
        if token.opaque:
            settings.opaque.add(f"env.{name}")
    _fill_defaults(settings, parser)
    derive(settings)
    return settings, findings


def check(invocation: Invocation, options: Options) -> list[Finding]:
    settings, findings = settings_for(invocation, options)
    return findings + rules.evaluate(settings)


def _supported(release: str) -> str:
    """The release whose flag catalog stands for `release` (the nearest one outside the range)."""
    known = catalog.known_releases()
    if versions.is_supported(release):
        return release
    return known[0] if versions.key(release) < versions.key(known[0]) else known[-1]


def _fill_defaults(settings: Settings, parser: ArgvParser) -> None:
    for spec in parser.cat.flags.values():
        path = parser.path_of(spec)
        if spec.default is None or "." in path or settings.has(path):
            continue
        settings.set(path, spec.default, None)
        settings.defaulted.add(path)


def _config_argument(argv: Iterable[Token]) -> Token | None:
    words = list(argv)
    for i, tok in enumerate(words):
        if tok.text == "--config" and i + 1 < len(words):
            return words[i + 1]
        if tok.text.startswith("--config="):
            return Token(tok.text.partition("=")[2], tok.span, tok.opaque)
    return None


def _config_argv(
    config: Token, invocation: Invocation, options: Options
) -> tuple[list[Token], list[Finding]]:
    """The flags of a `--config` file in the repo, as argv words pointing into that file."""
    from .sources.vllm_config import argv_of

    target = (Path(invocation.base_dir) / config.text).resolve()
    root = options.root.resolve()
    if not target.is_relative_to(root) or not target.is_file():
        note = rules.flag_finding(
            "VL904",
            config.span,
            invocation.version_hint,
            problem=f"{config.text} is not in the repo",
        )
        return [], [note]
    shown = str(target.relative_to(root)) if target.is_relative_to(Path.cwd()) else str(target)
    try:
        text = target.read_bytes()[: options.max_bytes].decode("utf-8")
        yf = yamlsrc.load(shown, text)
    except (OSError, UnicodeDecodeError) as exc:
        return [], [rules.flag_finding("VL904", config.span, None, problem=f"{config.text}: {exc}")]
    except yamlsrc.YamlError as exc:
        span = Span(shown, exc.line, exc.col, exc.line, exc.col + 1)
        return [], [rules.flag_finding("VL901", span, None, problem=f"YAML syntax error: {exc}")]
    if len(yf.documents) != 1 or not yamlsrc.is_mapping(yf.documents[0]):
        return [], []
    return argv_of(yf, yf.documents[0]), []


def check_command_line(
    argv: str, release: str, env: dict[str, str] | None = None, path: str = "<command line>"
) -> list[Finding]:
    """Lint the arguments of one `vllm serve` written as a shell line (rule examples, tools)."""
    from .shell import Lexer
    from .textpos import FilePositions

    words = [
        w for command in Lexer(argv, FilePositions(path, argv)).commands() for w in command.words
    ]
    span = Span(path, 1, 1, 1, 2)
    invocation = Invocation(
        path=path,
        argv=tuple(words),
        env={name: Token(value, span) for name, value in (env or {}).items()},
        origin="command line",
    )
    return check(invocation, Options(vllm_version=release))
