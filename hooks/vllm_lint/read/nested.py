"""YAML held in a YAML string (RayService `serveConfigV2: |`, a ConfigMap's `templates.yaml`),
parsed again with every span mapped back to the outer file."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.read.yaml import YamlError, YamlFile, load, scalar_positions

Remap = Callable[[Span], Span]


def parse(yf: YamlFile, node: Any) -> tuple[YamlFile, Remap] | None:
    """The YAML inside a scalar, or None when it is not YAML (then it is left alone)."""
    text = str(node.value)
    try:
        inner = load(yf.path, text)
    except YamlError:
        return None
    outer = scalar_positions(yf, node)
    inner_positions = FilePositions(yf.path, text)

    def remap(span: Span) -> Span:
        start = inner_positions.offset(span.line - 1, span.col - 1)
        end = inner_positions.offset(span.end_line - 1, max(span.end_col - 2, 0))
        line, col = outer.at(start)
        end_line, end_col = outer.at(max(start, end))
        return Span(yf.path, line, col, end_line, end_col + 1)

    return inner, remap


def remapped(found: Iterable[Invocation], remap: Remap) -> Iterator[Invocation]:
    def tok(t: Token) -> Token:
        return Token(t.text, remap(t.span), t.opaque)

    for inv in found:
        yield inv._replace(
            argv=tuple(tok(t) for t in inv.argv),
            env={name: tok(t) for name, t in inv.env.items()},
            image=tok(inv.image) if inv.image is not None else None,
            anchor=remap(inv.anchor) if inv.anchor is not None else None,
            gpus=tuple(g._replace(span=remap(g.span)) for g in inv.gpus),
        )
