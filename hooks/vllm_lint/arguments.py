"""The command line's arguments: the argparse parser, `--version`. Imported only when a run
needs it (quick.py answers the common pre-commit run without it)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from vllm_lint import __version__
from vllm_lint.exits import EXIT_CLEAN, FAIL_LEVELS, UsageError


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line (`vllm-lint: error: …`), as for every error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see vllm-lint --help)")


def parser() -> argparse.ArgumentParser:
    from vllm_lint.report import REPORTERS

    parser = _Parser(
        prog="vllm-lint",
        allow_abbrev=False,  # options are matched whole: `--conf` is not `--config`
        description="Find vLLM flag combinations that vLLM refuses at startup, in the "
        "Kubernetes manifests, compose files, scripts and vLLM config files that launch it.",
        epilog="Subcommands: `vllm-lint rules [SELECTOR ...] [--format json]` lists the rules, "
        "`vllm-lint explain ID` shows one. Exit codes: 0 clean, 1 findings at or above "
        "--fail-on, 2 usage or configuration error, 3 internal error.",
    )
    parser.add_argument(
        "paths", nargs="*", default=["."], help="files or folders (default: .); - reads stdin"
    )
    parser.add_argument(
        "--vllm-version",
        metavar="X.Y.Z",
        help="check every invocation against this release (ignores image tags)",
    )
    parser.add_argument(
        "-o",
        "--output-format",
        "--format",
        dest="format",
        choices=sorted(REPORTERS),
        default="text",
        help="text (default), concise (one line per finding), json, github, sarif, markdown",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        default=None,
        help="lowest severity that makes the exit code 1 (default: warning, or the config's)",
    )
    configs = parser.add_mutually_exclusive_group()
    configs.add_argument(
        "--config",
        metavar="FILE",
        help="use this configuration file for every file (default: the nearest "
        ".vllm-lint.yaml or [tool.vllm-lint] in pyproject.toml above each file)",
    )
    configs.add_argument("--no-config", action="store_true", help="ignore every configuration file")
    parser.add_argument(
        "--select",
        metavar="IDS",
        type=_id_list,
        help="only these rules: comma-separated ids, id prefixes (VL1) or slugs, any case",
    )
    parser.add_argument(
        "--ignore",
        metavar="IDS",
        type=_id_list,
        help="never report these rules (added to the config's ignore list)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with `-`: the path the text on stdin stands for (its kind, configuration, "
        "release pins and the name in findings)",
    )
    parser.add_argument(
        "--show-invocations",
        action="store_true",
        help="print every vLLM invocation found (file, line, release, flags) instead of findings",
    )
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="print how many findings each rule has, instead of the findings",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print the findings and nothing else"
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="auto (default): when stdout is a terminal, unless NO_COLOR is set or FORCE_COLOR is",
    )
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
    parser.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes (renamed flags, abbreviations written in full) to the files, "
        "everything else kept byte for byte, then report what remains",
    )
    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, also the unsafe fixes (they may change what the launch "
        "does: a removed flag dropped)",
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print the fixes as a unified diff instead of writing them (exit 1 if any)",
    )
    parser.add_argument(
        "--ignore-suppressions",
        metavar="PATH",
        action="append",
        default=[],
        help="inline `# vllm-lint: ignore` comments in PATH (a file or folder; `.` for all) "
        "hide nothing (repeatable)",
    )
    parser.add_argument(
        "--baseline", metavar="FILE", help="report only the findings FILE does not record"
    )
    parser.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="record today's findings in FILE (for --baseline) and exit 0",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version and the vLLM releases known"
    )
    return parser


class _Version(argparse.Action):
    """`--version`, worked out only when asked (it reads the catalogue index)."""

    def __call__(self, *args: object, **kwargs: object) -> NoReturn:
        print(version_text())
        raise SystemExit(EXIT_CLEAN)


def version_text() -> str:
    """`vllm-lint X (vLLM A to B, N releases)`: the releases this build knows."""
    from vllm_lint.release import known_releases, normalize

    known = [normalize(r) for r in known_releases()]
    return f"vllm-lint {__version__} (vLLM {known[0]} to {known[-1]}, {len(known)} releases)"


def _id_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())
