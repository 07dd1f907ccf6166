"""One reporter per output format; `REPORTERS` is the only list of formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from ..model import Finding
from . import github, json_format, markdown, sarif, text

Reporter = Callable[[Sequence[Finding], TextIO, "ReportContext"], None]


class ReportContext:
    """What every reporter may need besides the findings."""

    def __init__(
        self,
        files_checked: int,
        invocations: int,
        color: bool = False,
        annotate_limit: int = github.DEFAULT_ANNOTATE_LIMIT,
        workspace: str | None = None,
    ) -> None:
        self.files_checked = files_checked
        self.invocations = invocations
        self.color = color
        self.annotate_limit = annotate_limit  # `--format github`: how many findings to annotate
        self.workspace = workspace  # paths are shown relative to it (default $GITHUB_WORKSPACE)


REPORTERS: dict[str, Reporter] = {
    "text": text.report,
    "json": json_format.report,
    "github": github.report,
    "sarif": sarif.report,
    "markdown": markdown.report,
}
