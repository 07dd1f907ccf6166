"""Jupyter notebooks: Markdown cells are read as Markdown (their fenced blocks), code cells as
one Python program (an import in one cell serves the next), with `%%bash` / `%%sh` cells and
`!command` lines read as shell. Stored outputs are never read. Places point at the line of
the `.ipynb` file that holds the character (a cell line is a JSON string there)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from vllm_lint.model import Invocation
from vllm_lint.read.fences import Block, markdown_blocks
from vllm_lint.read.notebook import Cell, cells
from vllm_lint.sources.doc_blocks import (
    Located,
    joined,
    located_block,
    read_blocks,
    read_python,
    with_document_release,
)
from vllm_lint.sources.document import Document

_SHELL_CELL = re.compile(r"%%(?:bash|sh|shell|script[ \t]+(?:ba|z)?sh)\b")
_MAGIC = re.compile(r"[ \t]*[!%]")


def find(doc: Document) -> Iterator[Invocation]:
    found: list[Invocation] = []
    python: list[Located] = []
    spans: list[tuple[int, int]] = []
    for cell in cells(doc.path, doc.text):
        if not cell.text.strip():
            continue
        first = cell.positions.at(0)[0]
        spans.append((first, cell.positions.at(len(cell.text) - 1)[0]))
        where = f"cell {cell.index}, "
        if cell.kind == "markdown":
            found += read_blocks(doc, markdown_blocks(cell.text), cell.positions, where)
        elif cell.kind == "code":
            code, shell = _split(cell)
            python.append(located_block(code, cell.positions))
            if shell is not None:
                found += read_blocks(doc, [shell], cell.positions, where)
    if python:
        found += read_python(doc, joined(python), "code cells")
    yield from with_document_release(found, doc.text, spans)


def _split(cell: Cell) -> tuple[Block, Block | None]:
    """The cell's Python (magic lines blanked) and its shell (a `%%bash` cell, `!` lines)."""
    lines = cell.text.split("\n")
    origins, at = [], 0
    for line in lines:
        origins.append(at)
        at += len(line) + 1
    if _SHELL_CELL.match(lines[0]):
        body = "".join(line + "\n" for line in lines[1:])
        empty = Block("python", "\n" * len(lines), tuple(origins), 0, 0)
        return empty, Block("bash", body, tuple(origins[1:]), 0, 0)
    code, shell, shell_origins = [], [], []
    has_shell = False
    for line, origin in zip(lines, origins, strict=True):
        magic = _MAGIC.match(line)
        if magic is None:
            code.append(line)
            shell.append("")
            shell_origins.append(origin)
            continue
        code.append("")
        if line[magic.end() - 1] == "!":
            has_shell = True
            shell.append(line[magic.end() :])
            shell_origins.append(origin + magic.end())
        else:
            shell.append("")
            shell_origins.append(origin)
    python = Block("python", "".join(c + "\n" for c in code), tuple(origins), 0, 0)
    if not has_shell:
        return python, None
    return python, Block("bash", "".join(s + "\n" for s in shell), tuple(shell_origins), 0, 0)
