"""Checking one file that may launch vLLM: extract its invocations, and for each one choose
the release, build the effective settings (argv grammar, `--config` file, env, defaults,
derived values) and evaluate the rules."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.argv.parser import ArgvParser
from vllm_lint.effective.derive import derive
from vllm_lint.effective.settings import Settings
from vllm_lint.files import sniff
from vllm_lint.model import FileResult, Finding, Invocation, ReleaseChoice, Span, Token
from vllm_lint.pipeline import Options
from vllm_lint.read import yaml as yamlsrc
from vllm_lint.rules import registry as rules
from vllm_lint.sources.registry import extract


def check_file(result: FileResult, text: str, options: Options) -> None:
    """Fill `result` with the invocations of a decoded file and their findings."""
    path = result.path
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


def _fallback(options: Options) -> ReleaseChoice:
    if options.vllm_version:
        return ReleaseChoice(versions.normalize(options.vllm_version), "--vllm-version")
    if options.default_version:
        return ReleaseChoice(versions.normalize(options.default_version), "configured default")
    newest = versions.newest_known()
    return ReleaseChoice(newest, f"no image tag names a release: assumed the newest known {newest}")


def release_for(invocation: Invocation, options: Options) -> ReleaseChoice:
    """--vllm-version, else the file's own image tag, else a pin in the repo
    (repo_hints), else the configured default or the newest known release."""
    if options.vllm_version:
        forced = _fallback(options)
        pinned = invocation.version_hint
        if pinned is not None and pinned.version != forced.version:  # the upgrade check
            return ReleaseChoice(forced.version, f"--vllm-version (the file pins {pinned.version})")
        return forced
    if invocation.version_hint is not None:
        return invocation.version_hint
    from vllm_lint.repo_hints import pinned_release

    return pinned_release(invocation.path, options.root) or _fallback(options)


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
    document = settings.document
    for path, default in _defaults(parser):
        if path not in document:  # top-level paths only: `Settings.has` and `set`, inlined
            document[path] = default
            settings.defaulted.add(path)


_DEFAULTS: dict[str, tuple[tuple[str, object], ...]] = {}


def _defaults(parser: ArgvParser) -> tuple[tuple[str, object], ...]:
    """(settings path, default) of the catalog's flags that have one, once per catalog."""
    release = parser.cat.release
    if release not in _DEFAULTS:
        _DEFAULTS[release] = tuple(
            (path, spec.default)
            for spec in parser.cat.flags.values()
            if spec.default is not None and "." not in (path := parser.path_of(spec))
        )
    return _DEFAULTS[release]


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
    from vllm_lint.sources.vllm_config import argv_of

    root = options.root.resolve()
    try:
        target = (Path(invocation.base_dir) / config.text).resolve()
        usable = target.is_relative_to(root) and target.is_file()
    except (OSError, ValueError):  # a NUL byte, a name too long, a link loop
        usable = False
    if not usable:
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
    return check(command_line_invocation(argv, env, path), Options(vllm_version=release))


def command_line_invocation(
    argv: str, env: dict[str, str] | None = None, path: str = "<command line>"
) -> Invocation:
    """The invocation of one `vllm serve` written as a shell line."""
    from vllm_lint.files.textpos import FilePositions
    from vllm_lint.read.shell import Lexer

    words = [
        w for command in Lexer(argv, FilePositions(path, argv)).commands() for w in command.words
    ]
    span = Span(path, 1, 1, 1, 2)
    return Invocation(
        path=path,
        argv=tuple(words),
        env={name: Token(value, span) for name, value in (env or {}).items()},
        origin="command line",
    )
