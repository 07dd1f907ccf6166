"""`--statistics`: how many findings each rule has, most first (as ruff's --statistics)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from vllm_lint.model import Finding

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext, fmt: str) -> None:
    from vllm_lint.report.gate import gated

    findings, context = gated(findings, context, "json" if fmt == "json" else "terminal")
    counts = Counter((f.rule, f.slug, f.severity.label) for f in findings)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    if fmt == "json":
        table = [
            {"rule": rule, "slug": slug, "severity": severity, "count": count}
            for (rule, slug, severity), count in rows
        ]
        json.dump(table, out, indent=2, ensure_ascii=True)
        out.write("\n")
        return
    width = max((len(str(count)) for _key, count in rows), default=1)
    for (rule, slug, severity), count in rows:
        out.write(f"{count:>{width}}  {rule:<6} [{severity}] {slug}\n")
