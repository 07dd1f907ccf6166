"""Command line: parse arguments into plain values, run the pipeline, report, exit.

Exit codes: 0 nothing at or above the fail level, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from vllm_lint import __version__

if TYPE_CHECKING:
    from vllm_lint.config import Config
    from vllm_lint.model import Finding
    from vllm_lint.report import ReportContext
    from vllm_lint.rules.registry import RuleSet

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FAIL_LEVELS = ("error", "warning", "info", "never")


class UsageError(Exception):
    """Bad arguments or configuration: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line (`vllm-lint: error: …`), as for every error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see vllm-lint --help)")


def _parser() -> argparse.ArgumentParser:
    from vllm_lint.report import REPORTERS

    parser = _Parser(
        prog="vllm-lint",
        description="Find vLLM flag combinations that vLLM refuses at startup, in the "
        "Kubernetes manifests, compose files and vLLM config files that launch it.",
        epilog="Subcommands: `vllm-lint rules` lists the rules, `vllm-lint explain ID` shows one. "
        "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or internal error.",
    )
    parser.add_argument("paths", nargs="*", default=["."], help="files or folders (default: .)")
    parser.add_argument(
        "--vllm-version",
        metavar="X.Y.Z",
        help="check every invocation against this release (ignores image tags)",
    )
    parser.add_argument("--format", choices=sorted(REPORTERS), default="text")
    parser.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        default=None,
        help="lowest severity that makes the exit code 1 (default: warning, or the config's)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .vllm-lint.yaml or [tool.vllm-lint] in "
        "pyproject.toml, found upward from the first path)",
    )
    parser.add_argument(
        "--select",
        metavar="IDS",
        type=_id_list,
        help="only these rules: comma-separated ids, id prefixes (VL1) or slugs",
    )
    parser.add_argument(
        "--ignore",
        metavar="IDS",
        type=_id_list,
        help="never report these rules (added to the config's ignore list)",
    )
    parser.add_argument(
        "--show-invocations",
        action="store_true",
        help="print every vLLM invocation found (file, line, release, flags) instead of findings",
    )
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument(
        "--sarif-file", metavar="PATH", help="also write the findings as SARIF 2.1.0 to PATH"
    )
    parser.add_argument(
        "--summary-file",
        metavar="PATH",
        help="also append a Markdown table of the findings to PATH "
        "(with --format github: $GITHUB_STEP_SUMMARY when set)",
    )
    parser.add_argument(
        "--annotate-limit",
        type=int,
        metavar="N",
        default=10,
        help="with --format github: annotate at most N findings, errors first (default: 10)",
    )
    parser.add_argument("--version", action="version", version=f"vllm-lint {__version__}")
    return parser


def _id_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in ("rules", "explain") and not os.path.exists(args[0]):
            from vllm_lint.rules.docs import explain_command, rules_command

            return rules_command(args[1:]) if args[0] == "rules" else explain_command(args[1:])
        return _lint(_parser().parse_args(args))
    except UsageError as exc:
        print(f"vllm-lint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:  # `vllm-lint … | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:  # never a traceback for users; VLLM_LINT_DEBUG=1 shows it
        if os.environ.get("VLLM_LINT_DEBUG"):
            raise
        print(f"vllm-lint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR


def run() -> NoReturn:
    """The program (the `vllm-lint` script, `python -m vllm_lint`): `main`, its output flushed,
    then `os._exit`. The interpreter's teardown would free every object of the run one by one
    (about a tenth of a 2,000-file run) for a process that is ending anyway."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # as in `main`: the reader left; say nothing more
        code = EXIT_FINDINGS
    os._exit(code)


def _lint(ns: argparse.Namespace) -> int:
    from vllm_lint.files.collect import expand
    from vllm_lint.model import Severity
    from vllm_lint.options import Options
    from vllm_lint.pipeline import lint_paths, reported
    from vllm_lint.report import REPORTERS, ReportContext

    config = _configuration(ns)
    ruleset = _ruleset(config)
    if ns.vllm_version:
        from vllm_lint import release as versions

        try:
            versions.normalize(ns.vllm_version)
        except ValueError as exc:
            raise UsageError(f"--vllm-version: {exc}") from None
        if not versions.is_supported(ns.vllm_version):
            raise UsageError(
                f"--vllm-version {ns.vllm_version}: no flag catalog for that release series "
                f"(known: {', '.join(_known_series())})"
            )
    if ns.annotate_limit < 0:
        raise UsageError("--annotate-limit: must be 0 or more")
    for path in ns.paths:
        if not os.path.lexists(path):
            raise UsageError(f"{path}: no such file or folder")
    options = Options(
        vllm_version=ns.vllm_version,
        default_version=config.vllm_version,
        root=Path.cwd(),
        config=config,
        rules=ruleset,
        keep_invocations=ns.show_invocations,  # else each file's launches go once checked
        **({"max_bytes": config.max_file_size} if config.max_file_size else {}),
    )
    results = lint_paths(expand(ns.paths, options.root), options)
    if ns.show_invocations:
        from vllm_lint.report.invocations import show

        show(results, options, sys.stdout, results.files_checked)
        return EXIT_CLEAN
    findings = reported(results, options)
    color = ns.color == "always" or (ns.color == "auto" and sys.stdout.isatty())
    context = ReportContext(
        files_checked=results.files_checked,
        invocations=results.invocations,
        color=color,
        annotate_limit=ns.annotate_limit,
        rules=ruleset,
    )
    REPORTERS[ns.format](findings, sys.stdout, context)
    _write_files(ns, findings, context)
    fail_on = ns.fail_on or config.fail_on or "warning"
    if fail_on == "never":
        return EXIT_CLEAN
    level = Severity.parse(fail_on)
    return EXIT_FINDINGS if any(f.severity >= level for f in findings) else EXIT_CLEAN


def _write_files(ns: argparse.Namespace, findings: list[Finding], context: ReportContext) -> None:
    """The outputs written besides stdout: --sarif-file, --summary-file (the job summary)."""
    summary = ns.summary_file
    if summary is None and ns.format == "github":
        summary = os.environ.get("GITHUB_STEP_SUMMARY") or None
    if not ns.sarif_file and not summary:
        return  # the common case: neither reporter is imported
    from vllm_lint.report import markdown, sarif

    try:
        if ns.sarif_file:
            sarif.write_file(ns.sarif_file, findings, context)
        if summary:
            markdown.append_summary(summary, findings, context, ns.format == "github")
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror}") from None


def _configuration(ns: argparse.Namespace) -> Config:
    """The project's configuration with the command line's overrides; rule packs loaded."""
    from dataclasses import replace

    from vllm_lint.config import ConfigError, discover

    try:
        config = discover(ns.paths, ns.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if ns.select is not None:
        config = replace(config, select=ns.select)
    if ns.ignore:
        config = replace(config, ignore=config.ignore + ns.ignore)
    if config.vllm_version:
        from vllm_lint import release as versions

        if not versions.is_supported(config.vllm_version):
            raise UsageError(f"{config.path}: vllm-version {config.vllm_version}: unknown release")
    return config


def _ruleset(config: Config) -> RuleSet:
    """The built-in rules and the configuration's rule packs."""
    from vllm_lint.rules.registry import RuleFileError, RuleSet, load_rule_file

    try:
        return RuleSet(tuple(rule for path in config.extra_rules for rule in load_rule_file(path)))
    except RuleFileError as exc:
        raise UsageError(str(exc)) from None


def _known_series() -> list[str]:
    from vllm_lint.argv.catalog import known_releases

    return [".".join(r.split(".")[:2]) for r in known_releases()]


if __name__ == "__main__":  # pragma: no cover
    run()
