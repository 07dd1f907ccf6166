"""`--show-invocations`: what the linter saw, one block per vLLM launch.

For each launch: where it is written (`path:line:col`) and by what (a container, a script
line, a values entry…), the release it was checked against and why, the words that were not
literal (never judged), the flags as vLLM would normalize them with the line each came from,
the environment the server gets, and the GPUs its carrier grants (`gpus:`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from vllm_lint.model import FileResult, Invocation
from vllm_lint.report.escape import inert

if TYPE_CHECKING:
    from vllm_lint.effective.settings import Settings

_MAX_VALUE = 120  # long JSON values are cut for reading; the check sees them whole


def show(results: Sequence[FileResult], out: TextIO, files: int | None = None) -> None:
    """Every launch of `results`, with the settings the pipeline built for it; `files`: how
    many files were read (default: the results)."""
    count = 0
    for result in results:
        for invocation, settings in zip(result.invocations, result.settings, strict=True):
            count += 1
            _one(invocation, settings, out)
    out.write(
        f"{count} vLLM invocation(s) in {len(results) if files is None else files} file(s).\n"
    )


class _Inert:
    """Each line written from a linted file: printable, and no command to a CI log."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> None:
        self._out.write(inert(text.removesuffix("\n")) + "\n")


def _one(invocation: Invocation, settings: Settings, stream: TextIO) -> None:
    out = _Inert(stream)
    line, col = _where(invocation)
    out.write(f"{invocation.path}:{line}:{col}: {invocation.origin}\n")
    out.write(f"  release: {settings.release.version} ({settings.release.reason})\n")
    if invocation.image is not None:
        shown = "<not literal>" if invocation.image.opaque else invocation.image.text
        out.write(f"  image: {shown}\n")
    if invocation.entrypoint not in ("vllm serve", "image"):
        out.write(f"  entry point: {invocation.entrypoint}\n")
    if not settings.judged:
        out.write("  flags not checked: they never reach vLLM's serve parser\n")
    opaque = [t.text for t in invocation.argv if t.opaque]
    if opaque:
        words = ", ".join(_cut(w, 40) for w in opaque[:6]) + (", …" if len(opaque) > 6 else "")
        out.write(f"  not literal, not checked: {words}\n")
    for path in sorted(settings.spans):
        if path.startswith("env.") or "." in path or path == "image":
            continue
        value = "<not literal>" if path in settings.opaque else json.dumps(settings.get(path))
        span = settings.spans[path]
        at = ""
        if span is not None:
            at = (
                f"  (line {span.line})"
                if span.path == invocation.path
                else f"  ({span.path}:{span.line})"
            )
        out.write(f"  --{path.replace('_', '-')} {_cut(value, _MAX_VALUE)}{at}\n")
    for name in sorted(invocation.env):
        token = invocation.env[name]
        value = "<not literal>" if token.opaque else _cut(json.dumps(token.text), _MAX_VALUE)
        out.write(f"  env {name}={value}\n")
    for grant in invocation.gpus:  # what the carrier says of the node's GPUs
        count = "unknown" if grant.number is None else str(grant.number)
        vendor = "" if grant.vendor == "nvidia" else f" {grant.vendor}"
        out.write(f"  gpus: {count}{vendor} ({grant.how}, line {grant.span.line})\n")
    world, gpus = settings.get("derived.world_size"), settings.get("derived.node_gpus")
    if gpus is not None:
        out.write(f"  world size {world} on a node with at most {gpus} GPU(s)\n")


def _where(invocation: Invocation) -> tuple[int, int]:
    if invocation.anchor is not None:
        return invocation.anchor.line, invocation.anchor.col
    if invocation.argv:
        return invocation.argv[0].span.line, invocation.argv[0].span.col
    return 1, 1


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
