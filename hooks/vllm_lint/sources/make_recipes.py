"""Makefiles (`Makefile`, `GNUmakefile`, `*.mk`): every recipe line is a shell command.

As GNU make reads them (https://www.gnu.org/software/make/manual/make.html): a recipe line
starts with a tab (or `.RECIPEPREFIX`) after a rule; its `@`, `-` and `+` prefixes are make's
own; a backslash-newline continues it, the next line's leading tab removed; each line runs in
its own shell unless `.ONESHELL` is set. Make expands `$(VAR)` / `${VAR}` before the shell sees
the line and turns `$$` into `$`. Variables the file assigns a literal (`=`, `:=`, `::=`, `?=`,
`+=`, with `export` / `override`) are expanded with the place each character was written;
anything else (`$(shell …)`, `$@`, a variable from the command line or environment) is left
as written, which the shell lexer reads as an unknown word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from vllm_lint.files.textpos import MappedPositions
from vllm_lint.model import Invocation
from vllm_lint.read.shell import Point
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in

_ASSIGN = re.compile(
    r"^(?:(?:export|override)\s+)*([A-Za-z_.][A-Za-z0-9_.-]*)\s*(\?=|:::=|::=|:=|\+=|!=|=)\s*(.*)$"
)
_RULE = re.compile(r"^[^\s#=][^=]*?:(?!=)")
_REF = re.compile(r"\$(?:\(([A-Za-z_][A-Za-z0-9_.-]*)\)|\{([A-Za-z_][A-Za-z0-9_.-]*)\})")
_MAX_DEPTH = 8


class _Text(NamedTuple):
    """Text and, for each character, where it was written."""

    chars: str
    points: tuple[Point, ...]


def find(doc: Document) -> Iterator[Invocation]:
    path, text = doc.path, doc.text
    lines = text.split("\n")

    def located(row: int, start: int, end: int) -> _Text:
        return _Text(
            lines[row][start:end],
            tuple((row + 1, k + 1) for k in range(start, end)),
        )

    variables: dict[str, _Text | None] = {}
    prefix = "\t"
    oneshell = ".ONESHELL:" in text
    in_rule = False
    base = str(Path(path).parent)
    k = 0
    recipe: list[_Text] = []

    def flush() -> Iterator[Invocation]:
        if recipe:
            yield from _recipe(path, base, recipe, oneshell)
            recipe.clear()

    while k < len(lines):
        raw = lines[k].rstrip("\r")
        if in_rule and raw.startswith(prefix):
            # a recipe line and its continuations; make keeps `\`+newline for the shell
            parts = [located(k, len(prefix), len(raw))]
            while raw.endswith("\\") and k + 1 < len(lines):
                k += 1
                raw = lines[k].rstrip("\r")
                skip = len(prefix) if raw.startswith(prefix) else 0
                newline = _Text("\n", (parts[-1].points[-1] if parts[-1].points else (k, 1),))
                parts += [newline, located(k, skip, len(raw))]
            joined = _join(parts)
            if not oneshell:
                yield from flush()
            recipe.append(_expand(joined, variables, 0))
            if not oneshell:
                yield from flush()
            k += 1
            continue
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            k += 1
            continue
        yield from flush()
        match = _ASSIGN.match(raw)
        if match and not raw.startswith(prefix):
            name, op = match.group(1), match.group(2)
            value_start = match.start(3)
            value = located(k, value_start, len(raw))
            while raw.endswith("\\") and k + 1 < len(lines):  # continued: joined by a space
                k += 1
                raw = lines[k].rstrip("\r")
                value = _join(
                    [_Text(value.chars[:-1] + " ", value.points), located(k, 0, len(raw))]
                )
            value = _Text(value.chars.split("#", 1)[0].rstrip(), value.points)
            if name == ".RECIPEPREFIX":
                prefix = value.chars[:1] or "\t"
            elif op == "!=":
                variables[name] = None  # shell output
            elif op == "?=" and name in variables:
                pass
            elif op == "+=" and name in variables:
                before = variables[name]
                variables[name] = (
                    None
                    if before is None
                    else _join([before, _Text(" ", value.points[:1] or before.points[-1:]), value])
                )
            else:
                variables[name] = (
                    _expand(value, variables, 0) if op in (":=", "::=", ":::=") else value
                )
            in_rule = False
            k += 1
            continue
        in_rule = bool(_RULE.match(raw)) and not raw.startswith(prefix)
        if in_rule and ";" in raw:  # `target: deps ; command`
            semi = raw.index(";")
            yield from _recipe(
                path, base, [_expand(located(k, semi + 1, len(raw)), variables, 0)], False
            )
        k += 1
    yield from flush()


def _join(parts: list[_Text]) -> _Text:
    return _Text("".join(p.chars for p in parts), tuple(pt for p in parts for pt in p.points))


def _expand(text: _Text, variables: dict[str, _Text | None], depth: int) -> _Text:
    """Make's expansion: known literal variables in place, `$$` → `$`, the rest as written."""
    out: list[str] = []
    points: list[Point] = []
    chars = text.chars
    i = 0
    while i < len(chars):
        if chars.startswith("$$", i):
            out.append("$")
            points.append(text.points[i + 1] if i + 1 < len(text.points) else text.points[i])
            i += 2
            continue
        match = _REF.match(chars, i) if chars[i] == "$" else None
        if match:
            value = variables.get(match.group(1) or match.group(2))
            if value is not None and depth < _MAX_DEPTH:
                inner = _expand(value, variables, depth + 1)
                out.append(inner.chars)
                points.extend(inner.points)
                i = match.end()
                continue
        out.append(chars[i])
        points.append(text.points[i])
        i += 1
    return _Text("".join(out), tuple(points))


def _recipe(path: str, base: str, lines: list[_Text], oneshell: bool) -> Iterator[Invocation]:
    """Run the recipe's lines as the shell would (one shell per line unless `.ONESHELL`)."""
    parts = []
    for line in lines:
        k = 0
        while k < len(line.chars) and line.chars[k] in "@-+ \t":
            k += 1  # make's own prefixes: silent, ignore errors, always run
        parts.append(_Text(line.chars[k:], line.points[k:]))
        parts.append(_Text("\n", line.points[-1:] or ((1, 1),)))
    script = _join(parts)
    if "vllm" not in script.chars:
        return
    positions = MappedPositions(path, script.points, script.points[0] if script.points else (1, 1))
    for launch in launches_in(script.chars, positions, ScriptContext()):
        yield invocation(path, launch, f"make recipe line {launch.anchor.line}", base)
