"""Python that starts the vLLM server as a program: argv lists and command strings, read with
`ast` (the code is never imported or run).

- Lists: any list the code writes whose words start the server (`["vllm", "serve", model]`,
  `[sys.executable, "-m", "vllm.entrypoints.openai.api_server"]`, `["bash", "-c", "…"]`,
  `["docker", "run", …, "vllm/vllm-openai:v0.9.0"]`), with what the same function adds to it
  (`cmd += […]`, `cmd.extend(…)`, `cmd.append(…)`, `cmd = cmd + […]`, `sys.argv = […] + args`),
  whatever call it is passed to (`subprocess.Popen`, `asyncio.create_subprocess_exec`, a
  framework that runs what a method returns). Elements that are not literal are opaque
  words, a `*splat` or an unknown list an opaque word standing for any number of them.
- Strings: a string expression holding a launch (`os.system("vllm serve …")`,
  `subprocess.run(f"… {port}", shell=True)`, `shlex.split(…)`, a usage line in a docstring),
  read as shell line by line, with f-string, `.format` and `%` fields opaque.

Both read a launch the way the shell readers do (`shell_commands`), so the grammar and the
programs recognised are the same.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from vllm_lint.files.textpos import MappedPositions
from vllm_lint.model import Invocation
from vllm_lint.read import placeholders, pysource
from vllm_lint.read.pyscope import Scopes, place
from vllm_lint.read.pyvalues import Values, Word
from vllm_lint.read.shell import Command
from vllm_lint.sources.doc_blocks import with_document_release
from vllm_lint.sources.document import Document
from vllm_lint.sources.programs import mentions_server, server_args
from vllm_lint.sources.shell_commands import (
    Launch,
    ScriptContext,
    invocation,
    launches_in,
    launches_of,
)


def find(doc: Document) -> Iterator[Invocation]:
    tree = doc.python
    if tree is None:
        return
    src = pysource.Source(doc.path, doc.text, tree)
    values = Values(src, Scopes(tree))
    base = str(Path(doc.path).parent)
    found: dict[tuple[int, int, int, int], Invocation] = {}
    for launch, origin in [*_lists(tree, values), *_strings(tree, values)]:
        inv = invocation(doc.path, launch, origin, base)
        key = (launch.anchor.line, launch.anchor.col, launch.anchor.end_line, launch.anchor.end_col)
        kept = found.get(key)
        # the same launch seen twice (a list and the list it grows into): keep the fuller one
        if kept is None or len(inv.argv) > len(kept.argv):
            found[key] = inv
    ordered = sorted(
        found.values(), key=lambda i: (i.anchor.line, i.anchor.col) if i.anchor else (0, 0)
    )
    settled = [placeholders.settle(inv, doc.text) for inv in ordered]
    yield from with_document_release(settled, doc.text, [], images=False)


def _may_launch(words: list[Word]) -> bool:
    text = " ".join(w.token.text for w in words[:12])
    return mentions_server(text)


def _launches(words: list[Word], path: str) -> Iterator[Launch]:
    """The launch a list holds: from its start, else from the first word that starts the
    server (the list may begin with a prefix nobody can read: `[*prefix, "vllm", "serve"]`)."""
    if not words or not _may_launch(words):
        return
    for start in range(len(words)):
        if start and server_args([w.token for w in words[start:]]) is None:
            continue
        rest = words[start:]
        command = Command(tuple(w.token for w in rest), tuple(w.points for w in rest))
        found = list(launches_of(command, path))
        if found:
            yield from found
            return


def _lists(tree: ast.Module, values: Values) -> Iterator[tuple[Launch, str]]:
    """Lists written in the code, and the lists names end up holding."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.BinOp)) and id(node) not in inside:
            words = values.words(node)
            if words is None:
                continue
            for sub in ast.walk(node):
                inside.add(id(sub))
            for launch in _launches(words, values.src.path):
                yield launch, "Python argv list"
    for node in ast.walk(tree):  # a list where it is used: `Popen(cmd)`, `return cmd`
        for name_node in _used(node):
            scope = values.scopes.of(name_node)
            name = pysource.dotted(name_node) or ""
            words = values.list_at(scope, name, place(name_node))
            for launch in _launches(words or [], values.src.path):
                yield launch, f"Python argv list `{name}`"
    for scope in values.scopes.all():  # and what each list ends up holding
        for name, events in scope.events.items():
            assigns = scope.assigns.get(name, [])
            for n in range(len(assigns)):
                # what the list holds just before it is assigned anew (or at the scope's end)
                until = events[assigns[n + 1]].place if n + 1 < len(assigns) else (1 << 30, 0)
                words = values.list_at(scope, name, until)
                if words is None:
                    continue
                for launch in _launches(words, values.src.path):
                    yield launch, f"Python argv list `{name}`"


def _used(node: ast.AST) -> Iterator[ast.expr]:
    """Names (and `self.x`) passed to a call, returned or assigned: where a list is used."""
    if isinstance(node, ast.Call):
        values = [*node.args, *(k.value for k in node.keywords)]
    elif isinstance(node, (ast.Return, ast.Assign)) and node.value is not None:
        values = [node.value]
    else:
        return
    for value in values:
        if isinstance(value, ast.Starred):
            value = value.value
        if isinstance(value, ast.Name) or (
            isinstance(value, ast.Attribute) and pysource.dotted(value) is not None
        ):
            yield value


def _strings(tree: ast.Module, values: Values) -> Iterator[tuple[Launch, str]]:
    """Maximal string expressions that hold a launch, read as shell line by line. A word of
    an argv list is not a command (`["pkill", "-f", "vllm serve"]`); `_lists` reads it."""
    parts: set[int] = {
        id(elt)
        for node in ast.walk(tree)
        if isinstance(node, (ast.List, ast.Tuple))
        for elt in node.elts
    }
    for node in ast.walk(tree):
        if id(node) in parts:
            continue
        if not isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call)):
            continue
        if isinstance(node, ast.Constant) and not isinstance(node.value, str):
            continue
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and not _mentions(values.src, node):
            continue
        chars = values.string(node)
        if chars is None:
            continue
        for sub in ast.walk(node):
            parts.add(id(sub))
        text = "".join(ch for ch, _ in chars)
        if not mentions_server(text):
            continue
        points = [p for _, p in chars]
        yield from ((launch, "Python command string") for launch in _lines(values, text, points))


def _mentions(src: pysource.Source, node: ast.AST) -> bool:
    segment = src.segment(node)
    return "vllm" in segment or "{" in segment  # a field may hold the program


def _lines(values: Values, text: str, points: list[tuple[int, int]]) -> Iterator[Launch]:
    """Each line (with its `\\` continuations) as one shell command line; what a line
    assigns is seen by the lines after it. Line by line, because prose (a docstring)
    around a command would otherwise be read as part of it (an apostrophe opens a quote);
    a command whose quote spans lines (a JSON value written over several) goes on until the
    quote closes."""
    context = ScriptContext()
    path = values.src.path
    start = 0
    while start < len(text):
        end = start
        joined = 0
        while True:
            newline = text.find("\n", end)
            if newline < 0:
                end = len(text)
                break
            if newline > start and text[newline - 1] == "\\":
                end = newline + 1
                continue
            line = text[start:newline]
            if joined < _MAX_QUOTED_LINES and _LAUNCH.search(line) and _open_quote(line):
                joined += 1
                end = newline + 1
                continue
            end = newline
            break
        line = text[start:end]
        if line.strip():
            line = placeholders.mask_angles(line)
            at = start + _command_start(line)
            positions = MappedPositions(
                path, points[at:end], points[at] if at < len(points) else (1, 1)
            )
            yield from launches_in(line[at - start :], positions, context)
        start = end + 1


_MAX_QUOTED_LINES = 50
_LAUNCH = re.compile(r"vllm\s+serve\b|python3?\s+-m\s+vllm\.|docker\s+run\b")


def _open_quote(line: str) -> bool:
    """Whether a shell line ends inside a single- or double-quoted string."""
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        i += 1
    return bool(quote)


# A command written in prose: after a colon or a list marker ("1. Start it: vllm serve m").
_PROSE_COMMAND = re.compile(
    r"(?:^[ \t]*(?:[-*+]|\d+[.)])[ \t]+|:[ \t]+)(?=(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+){0,20}"
    r"(?:vllm[ \t]+serve|python3?[ \t]+-m[ \t]+vllm\.|docker[ \t]+run)[ \t])"
)


def _command_start(line: str) -> int:
    """Where the command of a line starts: the line itself, or a command that prose
    introduces (a usage hint in a docstring or a printed message)."""
    match = _PROSE_COMMAND.search(line)
    return match.end() if match is not None else 0
