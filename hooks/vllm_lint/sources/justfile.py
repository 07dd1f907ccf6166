"""justfiles (`justfile`, `Justfile`, `.justfile`, `*.just`): recipe bodies are shell commands.

As just reads them (https://just.systems/man/en/): a recipe is a header `name params:` at the
start of a line and its indented body; each body line runs in its own shell (with `@` / `-`
prefixes of just's own) unless the body starts with a shebang or the file sets
`set shell`-independent `[script]`, in which case the body is one script. `{{ expr }}`
interpolations of variables assigned a literal (`name := "value"`, `export name := …`) are
expanded with the place each character was written; other interpolations (recipe parameters,
function calls, backticks) stay as written and the shell lexer reads them as unknown words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from vllm_lint.files.textpos import MappedPositions
from vllm_lint.model import Invocation
from vllm_lint.read.shell import Point
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in

_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*:=\s*(.*)$")
_STRING = re.compile(r"""^(?:'([^']*)'|"((?:[^"\\]|\\.)*)")\s*(?:#.*)?$""")
_HEADER = re.compile(r"^@?[A-Za-z_][A-Za-z0-9_-]*(?:\s[^:]*)?:(?!=)")
_INTERPOLATION = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}")

Located = tuple[str, tuple[Point, ...]]


def find(doc: Document) -> Iterator[Invocation]:
    path, text = doc.path, doc.text
    lines = text.split("\n")
    variables: dict[str, Located] = {}
    base = str(Path(path).parent)
    k = 0
    while k < len(lines):
        raw = lines[k].rstrip("\r")
        assign = _ASSIGN.match(raw)
        if assign:
            literal = _STRING.match(assign.group(2).strip())
            if literal:
                quote_at = raw.index(assign.group(2)) + 1
                value = literal.group(1) if literal.group(1) is not None else literal.group(2)
                points = tuple((k + 1, quote_at + j + 1) for j in range(len(value)))
                variables[assign.group(1)] = (value, points)
            k += 1
            continue
        is_script = k > 0 and lines[k - 1].strip() == "[script]"
        if _HEADER.match(raw) and not raw.startswith((" ", "\t")):
            body: list[tuple[str, tuple[Point, ...]]] = []
            k += 1
            while k < len(lines) and (lines[k].startswith((" ", "\t")) or not lines[k].strip()):
                row = lines[k].rstrip("\r")
                indent = len(row) - len(row.lstrip())
                points = tuple((k + 1, j + 1) for j in range(indent, len(row)))
                body.append((row[indent:], points))
                k += 1
            script = bool(body) and (body[0][0].startswith("#!") or is_script)
            yield from _body(path, base, body, variables, script)
            continue
        k += 1


def _body(
    path: str,
    base: str,
    body: list[Located],
    variables: dict[str, Located],
    script: bool,
) -> Iterator[Invocation]:
    lines = [_interpolate(text, points, variables) for text, points in body]
    if script:
        groups = [lines[1:]]  # the shebang line is the interpreter, not a command
    else:
        groups = []
        for text, where in lines:  # one shell per line; a `\` line continues into the next
            k = 0
            while k < len(text) and text[k] in "@-":
                k += 1
            if groups and groups[-1] and groups[-1][-1][0].endswith("\\"):
                groups[-1].append((text, where))
            else:
                groups.append([(text[k:], where[k:])])
    for group in groups:
        chars = "\n".join(t for t, _p in group)
        points: list[Point] = []
        for n, (_text, pts) in enumerate(group):
            if n:
                points.append(points[-1] if points else (1, 1))
            points.extend(pts)
        if "vllm" not in chars or not points:
            continue
        positions = MappedPositions(path, tuple(points), points[0])
        for launch in launches_in(chars, positions, ScriptContext()):
            yield invocation(path, launch, f"just recipe line {launch.anchor.line}", base)


def _interpolate(text: str, points: tuple[Point, ...], variables: dict[str, Located]) -> Located:
    """`{{ name }}` of a literal variable → its value, located where it was written."""
    out: list[str] = []
    where: list[Point] = []
    i = 0
    for match in _INTERPOLATION.finditer(text):
        value = variables.get(match.group(1))
        if value is None:
            continue
        out.append(text[i : match.start()])
        where.extend(points[i : match.start()])
        out.append(value[0])
        where.extend(value[1])
        i = match.end()
    out.append(text[i:])
    where.extend(points[i:])
    return "".join(out), tuple(where)
