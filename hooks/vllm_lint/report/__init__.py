"""One reporter per output format; `REPORTERS` is the only list of formats.

Light to import (no model, no rules): the command line lists the formats on every run, and the
quick path (quick.py) prints the clean summary before anything else loads."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TextIO

if TYPE_CHECKING:
    from vllm_lint.model import Finding
    from vllm_lint.rules.registry import RuleSet

DEFAULT_ANNOTATE_LIMIT = 10

Reporter = Callable[[Sequence["Finding"], TextIO, "ReportContext"], None]


def all_clean(files_checked: int, invocations: int) -> str:
    """The summary line of a run without findings (text and concise formats)."""
    return f"All clean: {files_checked} file(s) checked, {invocations} vLLM invocation(s)."


class ReportContext:
    """What every reporter may need besides the findings."""

    def __init__(
        self,
        files_checked: int,
        invocations: int,
        color: bool = False,
        annotate_limit: int = DEFAULT_ANNOTATE_LIMIT,
        workspace: str | None = None,
        rules: RuleSet | None = None,  # default: the built-in rules
        quiet: bool = False,
        texts: Mapping[str, str] | None = None,
        unsafe_fixes: bool = False,
        fixed: int = 0,
        root: Path | None = None,
    ) -> None:
        self.files_checked = files_checked
        self.invocations = invocations
        self.color = color
        self.annotate_limit = annotate_limit  # `--format github`: how many findings to annotate
        self.workspace = workspace  # paths are shown relative to it (default $GITHUB_WORKSPACE)
        self._rules = rules
        self.quiet = quiet  # the findings and nothing else (no summary line)
        self.texts = texts or {}  # files not on disk (stdin), by the path findings name
        self.unsafe_fixes = unsafe_fixes  # `--unsafe-fixes`: unsafe fixes count as fixable
        self.fixed = fixed  # findings `--fix` fixed before these were found
        self.root = Path.cwd() if root is None else root  # excerpts are read only inside it
        self.medium = "terminal"  # set by the gate (gate.py) for the format's medium
        self.sources: dict[str, str] = {}  # a path as a reporter sees it → the file's own name

    def shown(self, text: str) -> str:
        """Text that is not a finding's (a rule pack's summary) made safe for the medium."""
        from vllm_lint.report.gate import shown

        return shown(text, self.medium)

    @property
    def rules(self) -> RuleSet:
        """The run's rules (a pack's rules are described like built-in ones)."""
        if self._rules is None:
            from vllm_lint.rules.registry import BUILTIN

            self._rules = BUILTIN
        return self._rules

    def lines(self, path: str) -> tuple[str, ...]:
        """The lines of a linted file, for excerpts and fingerprints: the text read from stdin,
        else the file read as the linter reads it (a regular file inside the root, capped; a
        link out of the repo or a device is never read), lines counted at `\\n` only."""
        from vllm_lint.files import reader
        from vllm_lint.files.layout import DEFAULT_MAX_BYTES

        path = self.sources.get(path, path)  # the gate shows names escaped; read the file's own
        text = self.texts.get(path)
        if text is None:
            text = reader.read_text(path, DEFAULT_MAX_BYTES, inside=self.root)
        return () if text is None else tuple(reader.lines_of(text))

    def excerpt(self, path: str) -> tuple[str, ...]:
        """A linted file's lines made safe for the medium (what a reporter quotes)."""
        return tuple(self.shown(line) for line in self.lines(path))

    def fixable(self, finding: Finding) -> bool:
        """Whether `--fix` (with this run's `--unsafe-fixes`) would fix the finding."""
        fix = finding.autofix
        return fix is not None and (fix.safe or self.unsafe_fixes)

    def fix_summary(self, findings: Sequence[Finding]) -> str:
        """ruff's "[*] N fixable with --fix" line (and the unsafe fixes it would leave), or ""."""
        fixable = sum(1 for f in findings if self.fixable(f))
        hidden = sum(1 for f in findings if f.autofix is not None and not self.fixable(f))
        option = "--fix --unsafe-fixes" if self.unsafe_fixes else "--fix"
        shown = f"[*] {fixable} fixable with {option}" if fixable else ""
        if not hidden:
            return shown
        more = f"{hidden} unsafe fix(es) available with --fix --unsafe-fixes"
        return f"{shown} ({more})" if shown else f"No safe fixes ({more})"


class _Reporters(Mapping[str, Reporter]):
    """Format name → reporter; a reporter's module is imported only when that format is used."""

    _MODULES: ClassVar[dict[str, str]] = {
        "text": "text",
        "concise": "concise",
        "json": "json_format",
        "github": "github",
        "sarif": "sarif",
        "markdown": "markdown",
    }

    def __getitem__(self, name: str) -> Reporter:
        """The format's reporter behind the gate: it is handed findings already made safe for
        its medium (gate.py), never the raw ones."""
        module = import_module(f".{self._MODULES[name]}", __name__)
        report: Reporter = module.report
        medium: str = module.MEDIUM

        def gated_report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
            from vllm_lint.report.gate import gated

            safe, view = gated(findings, context, medium)
            report(safe, out, view)

        return gated_report

    def __iter__(self) -> Iterator[str]:
        return iter(self._MODULES)

    def __len__(self) -> int:
        return len(self._MODULES)


REPORTERS: Mapping[str, Reporter] = _Reporters()


def medium(name: str) -> str:
    """The medium a format writes to (a key of gate.MEDIA): what its findings are made safe
    for, and what the contract test checks its output against."""
    found: str = import_module(f".{_Reporters._MODULES[name]}", __name__).MEDIUM
    return found
