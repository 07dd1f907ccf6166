"""One reporter per output format; `REPORTERS` is the only list of formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from ..model import Finding
from . import json_format, text

Reporter = Callable[[Sequence[Finding], TextIO, "ReportContext"], None]


class ReportContext:
    """What every reporter may need besides the findings."""

    def __init__(self, files_checked: int, invocations: int, color: bool = False) -> None:
        self.files_checked = files_checked
        self.invocations = invocations
        self.color = color


REPORTERS: dict[str, Reporter] = {
    "text": text.report,
    "json": json_format.report,
}
