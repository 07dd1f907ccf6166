"""Command line: parse arguments into plain values, run the pipeline, report, exit.

Exit codes: 0 nothing at or above the fail level, 1 findings, 2 usage or configuration error,
3 internal error (a bug in vllm-lint), as actionlint numbers them; each error is one line on
stderr, never a traceback (VLLM_LINT_DEBUG=1 shows it).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from vllm_lint.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERNAL, UsageError

if TYPE_CHECKING:
    import argparse

    from vllm_lint.config import Configs
    from vllm_lint.model import Finding
    from vllm_lint.options import Options
    from vllm_lint.pipeline import Results
    from vllm_lint.report import ReportContext


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from vllm_lint.quick import answer

    quick = answer(args, sys.stdout)  # files that cannot launch vLLM: before anything loads
    if quick is not None:
        return quick
    try:
        with warnings.catch_warnings():  # a library's warning may quote a linted file
            warnings.simplefilter("ignore")
            if args and args[0] in ("rules", "explain") and not os.path.exists(args[0]):
                from vllm_lint.rules.docs import explain_command, rules_command

                if args[0] == "rules":
                    return rules_command(args[1:])
                return explain_command(args[1:])
            if args and args[0] == "flag" and not os.path.exists(args[0]):
                from vllm_lint.flag_command import flag_command

                return flag_command(args[1:])
            if args and args[0] == "server" and not os.path.exists(args[0]):
                from vllm_lint.lsp import server_command

                return server_command(args[1:])
            from vllm_lint.arguments import parser

            return _lint(parser().parse_args(args))
    except UsageError as exc:
        print(f"vllm-lint: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    except SystemExit as exc:  # --help, --version
        return int(exc.code or 0)
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:  # `vllm-lint … | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:  # never a traceback for users; VLLM_LINT_DEBUG=1 shows it
        if os.environ.get("VLLM_LINT_DEBUG"):
            raise
        print(
            f"vllm-lint: internal error: {type(exc).__name__}: {_one_line(str(exc))} (a bug "
            "in vllm-lint: please report it, with the traceback VLLM_LINT_DEBUG=1 prints)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _one_line(message: str) -> str:
    """An error message quotes what it was given (a YAML line, a file name): one printable
    line, which no CI log reads as a workflow command."""
    from vllm_lint.report.escape import inert

    return inert(message)


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
    except ValueError:  # closed: the language server's transport ended with it
        pass
    os._exit(code)


def _lint(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vllm_lint.config import ConfigError
    from vllm_lint.files.budget import file_seconds
    from vllm_lint.model import Severity
    from vllm_lint.options import Options
    from vllm_lint.pipeline import lint_paths, reported
    from vllm_lint.report import REPORTERS, ReportContext

    _check_arguments(ns)
    options = Options(
        vllm_version=ns.vllm_version,
        root=Path.cwd(),  # nothing outside is read
        configs=_configs(ns),
        keep_invocations=ns.show_invocations,  # else each file's launches go once checked
        time_budget=file_seconds(),
        unsuppressed=tuple(ns.ignore_suppressions),
    )
    try:
        results, texts = _results(ns, options, lint_paths)
        if ns.show_invocations:
            from vllm_lint.report.invocations import show

            show(results, sys.stdout, results.files_checked)
            return EXIT_CLEAN
        findings = reported(results, options)
        fixed = 0
        if ns.fix or ns.diff or ns.baseline or ns.write_baseline:
            from vllm_lint.amend import Request, amend

            done = amend(Request.from_namespace(ns), results, findings, options, texts)
            if done.exit is not None:
                return done.exit
            results, findings, fixed = done.results, done.findings, done.fixed
        root = options.configs.for_path(".")  # the run's own settings: as ruff, the cwd's
    except ConfigError as exc:  # a configuration met on the way (nested, per file)
        raise UsageError(str(exc)) from None
    context = ReportContext(
        files_checked=results.files_checked,
        invocations=results.invocations,
        color=_color(ns.color),
        annotate_limit=ns.annotate_limit,
        rules=options.configs.rules_seen(),
        quiet=ns.quiet,
        texts=texts,
        unsafe_fixes=ns.unsafe_fixes,
        fixed=fixed,
    )
    if ns.statistics:
        from vllm_lint.report.statistics import report as statistics

        statistics(findings, sys.stdout, context, ns.format)
    else:
        REPORTERS[ns.format](findings, sys.stdout, context)
    _write_files(ns, findings, context)
    fail_on = ns.fail_on or root.fail_on or "warning"
    if fail_on == "never":
        return EXIT_CLEAN
    level = Severity.parse(fail_on)
    return EXIT_FINDINGS if any(f.severity >= level for f in findings) else EXIT_CLEAN


def _check_arguments(ns: argparse.Namespace) -> None:
    if ns.vllm_version:
        from vllm_lint import release

        try:
            release.normalize(ns.vllm_version)
        except ValueError as exc:
            raise UsageError(f"--vllm-version: {exc}") from None
        if not release.is_supported(ns.vllm_version):
            raise UsageError(
                f"--vllm-version {ns.vllm_version}: no flag catalog for that release series "
                f"(known: {', '.join(_known_series())})"
            )
    if ns.annotate_limit < 0:
        raise UsageError("--annotate-limit: must be 0 or more")
    if "-" in ns.paths and len(ns.paths) > 1:
        raise UsageError("`-` (stdin) cannot be given with other paths")
    if ns.stdin_filename is not None and ns.paths != ["-"]:
        raise UsageError("--stdin-filename goes with `-` (read the file from stdin)")
    for path in ns.paths:
        if path != "-" and not os.path.lexists(path):
            raise UsageError(f"{path}: no such file or folder")


def _results(
    ns: argparse.Namespace, options: Options, lint_paths: Callable[..., Results]
) -> tuple[Results, dict[str, str]]:
    """The linted files' results, and the text of a file read from stdin (for excerpts)."""
    if ns.paths != ["-"]:
        from vllm_lint.files.collect import expand

        return lint_paths(expand(ns.paths, options.root), options), {}
    from vllm_lint.pipeline import lint_buffer

    path = ns.stdin_filename or "<stdin>"
    data = sys.stdin.buffer.read(options.max_bytes(path) + 1)
    return lint_buffer(path, data, options), {path: data.decode("utf-8", errors="replace")}


def _color(choice: str) -> bool:
    """--color, else NO_COLOR / FORCE_COLOR (https://no-color.org), else a terminal's."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


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


def _configs(ns: argparse.Namespace) -> Configs:
    """Which configuration governs each file, with the command line's overrides applied."""
    from pathlib import Path

    from vllm_lint.config import Config, ConfigError, Configs, load

    def adjust(config: Config) -> Config:
        if ns.select is not None:
            config = config.replace(select=ns.select)
        if ns.ignore:
            config = config.replace(ignore=config.ignore + ns.ignore)
        return config

    try:
        if ns.config is not None:
            path = Path(ns.config)
            if not path.is_file():
                # a named file may live anywhere (the user chose it), but only a regular one
                # is read: a FIFO or /dev/zero would block or never end
                what = "not a regular file" if path.exists() else "no such configuration file"
                raise UsageError(f"{ns.config}: {what}")
            return Configs(fixed=load(path), adjust=adjust)
        return Configs(discover=not ns.no_config, adjust=adjust)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _known_series() -> list[str]:
    from vllm_lint.release import known_releases, minor_of

    return [minor_of(r) for r in known_releases()]


if __name__ == "__main__":  # pragma: no cover
    run()
