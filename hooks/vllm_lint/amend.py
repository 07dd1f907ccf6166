"""What a run does once its findings are known: the baseline (`--write-baseline`,
`--baseline`) and the fixes (`--fix`, `--unsafe-fixes`, `--diff`), as ruff does them.

- `--write-baseline FILE` records the findings and ends the run (exit 0).
- `--baseline FILE` keeps only the findings FILE does not hold; fixes apply to those only.
- `--fix` applies the safe fixes (with `--unsafe-fixes`, the unsafe ones too), file by file
  until none applies (fixer.py), writes the files that changed, lints everything again and
  reports what remains: the exit code is that of the remaining findings.
- `--diff` prints the same edits as a unified diff, writes nothing, and exits 1 when there is
  something to fix (0 otherwise).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from vllm_lint import baseline as baselines
from vllm_lint import fixer
from vllm_lint.files.reader import lines_of as split_lines
from vllm_lint.files.writer import anchor, check_writable, write_inside
from vllm_lint.fingerprint import read_lines
from vllm_lint.model import Finding
from vllm_lint.options import Options
from vllm_lint.pipeline import Results
from vllm_lint.report.escape import inert
from vllm_lint.report.gate import terminal_lines


@dataclass(frozen=True)
class Request:
    paths: Sequence[str] = field(default_factory=lambda: ["."])  # what the run linted
    fix: bool = False
    unsafe: bool = False
    diff: bool = False
    baseline: str | None = None
    write_baseline: str | None = None

    @classmethod
    def from_namespace(cls, ns: argparse.Namespace) -> Request:
        return cls(
            paths=ns.paths,
            fix=ns.fix,
            unsafe=ns.unsafe_fixes,
            diff=ns.diff,
            baseline=ns.baseline,
            write_baseline=ns.write_baseline,
        )


@dataclass
class Amended:
    results: Results
    findings: list[Finding]
    fixed: int = 0  # findings `--fix` fixed
    exit: int | None = None  # the run ends here, with this exit code


def _usage(message: str) -> Exception:
    from vllm_lint.exits import UsageError

    return UsageError(message)


def amend(
    request: Request,
    results: Results,
    findings: list[Finding],
    options: Options,
    texts: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> Amended:
    """The run's findings after the baseline and the fixes (the CLI's one call); `texts`
    holds what was read from stdin, by the name its findings carry."""
    out = out or sys.stdout
    err = err or sys.stderr
    texts = texts or {}

    def lines_of(path: str) -> Sequence[str]:
        return split_lines(texts[path]) if path in texts else read_lines(path)

    if request.write_baseline:
        if request.fix or request.diff or request.baseline:
            raise _usage("--write-baseline records findings: not with --fix, --diff or --baseline")
        try:
            count = baselines.write(request.write_baseline, findings, options.root, lines_of)
        except baselines.BaselineError as exc:
            raise _usage(str(exc)) from None
        err.write(f"vllm-lint: recorded {count} finding(s) in {request.write_baseline}\n")
        return Amended(results, findings, exit=0)
    if request.fix and not request.diff and texts:
        raise _usage("--fix writes files: for stdin (`-`) use --diff")
    known = None
    if request.baseline:
        try:
            known = baselines.load(request.baseline, options.root)
        except baselines.BaselineError as exc:
            raise _usage(str(exc)) from None
        findings = known.new(findings, lines_of)
    if not (request.fix or request.diff):
        return Amended(results, findings)
    fixed = _fix(findings, options, request.unsafe, known, texts)
    count = sum(f.fixed for f in fixed if f.after != f.before)
    changed = [f for f in fixed if f.after != f.before]
    for item in fixed:
        if item.reverted:
            err.write(inert(f"vllm-lint: {item.path}: not fixed: {item.reverted}") + "\n")
    if request.diff:
        out.write(terminal_lines(fixer.diff(changed)))  # the repo's text: through the gate
        err.write(
            f"Would fix {count} finding(s) in {len(changed)} file(s).\n"
            if changed
            else "No fixes to apply.\n"
        )
        return Amended(results, findings, exit=1 if changed else 0)
    for item in changed:
        try:
            write_inside(anchor(options.root, item.path), item.path, item.after)
        except OSError as exc:
            raise _usage(f"cannot write {item.path}: {exc.strerror or exc}") from None
    if not changed:
        return Amended(results, findings)
    from vllm_lint.files.collect import expand
    from vllm_lint.pipeline import lint_paths, reported

    results = lint_paths(expand(list(request.paths), options.root), options)
    findings = reported(results, options)
    if known is not None:
        findings = known.new(findings)
    return Amended(results, findings, fixed=count)


def _fix(
    findings: Sequence[Finding],
    options: Options,
    unsafe: bool,
    known: baselines.Baseline | None,
    texts: Mapping[str, str],
) -> list[fixer.FileFix]:
    """Each file with a fix to apply, fixed in memory (fixer.fix_file)."""
    from vllm_lint.pipeline import lint_bytes, reported

    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        by_path.setdefault(finding.span.path, []).append(finding)

    def relint(path: str, data: bytes) -> list[Finding]:
        found = reported([lint_bytes(path, data, options)], options)
        if known is None:
            return found
        text = split_lines(data.decode("utf-8-sig", errors="replace"))
        return known.new(found, lambda p: text if p == path else read_lines(p))

    done = []
    for path, own in by_path.items():
        if not any(fixer.wanted(f, unsafe) for f in own):
            continue
        if path not in texts:
            try:  # a link, or a file outside the repo: its findings stay, unfixed
                check_writable(anchor(options.root, path), path)
            except OSError as exc:
                refused = fixer.FileFix(path, b"", b"")
                refused.reverted = exc.strerror or str(exc)
                done.append(refused)
                continue
        try:
            data = texts[path].encode("utf-8") if path in texts else _read(path, options)
        except OSError as exc:
            raise _usage(f"cannot read {path}: {exc.strerror or exc}") from None
        done.append(fixer.fix_file(path, data, own, relint, unsafe))
    return done


def _read(path: str, options: Options) -> bytes:
    """The file as the linter read it (files/reader.py): a file past the size limit was never
    linted, so it has no finding to fix."""
    from vllm_lint.files.reader import read_bytes

    return read_bytes(path, options.max_bytes(path))
