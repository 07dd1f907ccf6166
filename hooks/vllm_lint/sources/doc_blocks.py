"""The code blocks of documentation read as the files they show, by the readers of those files.

A block's language decides how: shell (`bash`, `sh`, `shell`, `zsh`, untagged, `text` that
starts with a launch) by the shell reader; `console` (and any shell block whose lines start
with `$ `) the same, its prompt lines only (output is left out); `yaml` by every YAML reader
(Kubernetes, compose, Helm values, dstack, a `--config` file …); `dockerfile` by the
Dockerfile reader; `python` (all the Python blocks of a document, as one program: an import
in one block serves the next) by the Python readers. Every place is mapped back into the
documentation file. What the readers would report about the snippet itself (a YAML syntax
error in an elided example) is not a finding: documentation shows fragments on purpose.

The release a launch is read for: its own image tag, else the nearest release the document
names (`pip install vllm==X`, a `vllm/vllm-openai:vX` image) in the same block, else
anywhere in the document (the last one written before the launch, else the first after it),
else the repo's, else the newest known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from vllm_lint.files.sniff import Kind
from vllm_lint.files.textpos import FilePositions, Positions
from vllm_lint.model import Invocation, ReleaseEvidence, Span
from vllm_lint.read import nested, placeholders
from vllm_lint.read.fences import Block
from vllm_lint.read.variables import install_text
from vllm_lint.release import evidence_choice, evidence_in
from vllm_lint.sources.document import Document

SHELL = frozenset(
    {"", "bash", "sh", "shell", "zsh", "ksh", "shell-script", "shellscript", "bash-script"}
)
CONSOLE = frozenset(
    {"console", "shell-session", "sh-session", "bash-session", "shellsession", "terminal"}
)
TEXT = frozenset({"text", "txt", "plain", "plaintext", "none", "cmd", "output"})
# PowerShell: a command is the same words; a line continues with a backtick, not a backslash
POWERSHELL = frozenset({"powershell", "pwsh", "ps1", "ps", "posh"})
YAML = frozenset({"yaml", "yml"})
DOCKERFILE = frozenset({"dockerfile", "docker", "containerfile"})
PYTHON = frozenset({"python", "py", "python3", "py3", "ipython", "ipython3", "pycon"})

_PROMPT = re.compile(
    r"[ \t]*(?:\([\w.-]+\)[ \t]*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?[ \t]*)?[$#%][ \t]+"
)
_DOLLAR_PROMPT = re.compile(r"(?m)^[ \t]*\$[ \t]+\S")
_PYCON = re.compile(r"(?:>>>|\.\.\.)(?: |$)")
_PS_PROMPT = re.compile(r"[ \t]*PS(?:[ \t]+[^>\n]*)?>[ \t]+")
_BACKTICK_END = re.compile(r"(?<=[ \t])`(?=[ \t]*$)", re.MULTILINE)
# a `text` block is shell when its first line starts the server
_LAUNCH_START = re.compile(
    r"[ \t]*(?:\$[ \t]+)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*"
    r"(?:vllm[ \t]+serve|python3?[ \t]+-m[ \t]+vllm|docker[ \t]+run)\b"
)


# an untagged block is YAML when it starts like a manifest
_YAML_START = re.compile(
    r"(?:---[ \t]*$|(?:apiVersion|kind|services|version|name|image|spec|metadata):)"
)


class Located(NamedTuple):
    """A text found inside the file, and the file place of each of its offsets."""

    text: str
    at: Callable[[int], tuple[int, int]]


def located_block(block: Block, outer: Positions) -> Located:
    """A block's body: line k starts at `origins[k]` of the text the block was found in."""
    starts = []
    at = 0
    for line in block.text.split("\n")[:-1]:
        starts.append(at)
        at += len(line) + 1
    from bisect import bisect_right

    def where(offset: int) -> tuple[int, int]:
        row = max(0, min(bisect_right(starts, offset) - 1, len(block.origins) - 1))
        if not block.origins:
            return outer.at(0)
        return outer.at(block.origins[row] + offset - starts[row])

    return Located(block.text, where)


def joined(parts: Iterable[Located]) -> Located:
    """Texts read as one (the Python blocks of a document), each followed by a newline."""
    from bisect import bisect_right

    starts: list[int] = []
    pieces: list[Located] = []
    texts: list[str] = []
    at = 0
    for part in parts:
        text = part.text if part.text.endswith("\n") else part.text + "\n"
        starts.append(at)
        pieces.append(part)
        texts.append(text)
        at += len(text)

    def where(offset: int) -> tuple[int, int]:
        k = max(0, bisect_right(starts, offset) - 1)
        piece = pieces[k]
        inner = offset - starts[k]
        return piece.at(min(inner, max(len(piece.text) - 1, 0)))

    return Located("".join(texts), where)


def remapper(path: str, located: Located) -> Callable[[Span], Span]:
    """Spans of a reader given `located.text` as a file, mapped into the real file."""
    positions = FilePositions(path, located.text)

    def remap(span: Span) -> Span:
        start = positions.offset(span.line - 1, span.col - 1)
        end = positions.offset(span.end_line - 1, max(span.end_col - 2, 0))
        line, col = located.at(start)
        end_line, end_col = located.at(max(start, end))
        return Span(path, line, col, end_line, end_col + 1)

    return remap


# -- blocks -------------------------------------------------------------------------------------


def kind_of(block: Block) -> Kind | None:
    lang = block.lang
    first = next((line for line in block.text.split("\n") if line.strip()), "")
    if lang == "" and _YAML_START.match(first):
        return Kind.YAML  # an untagged block holding a manifest
    if lang in SHELL or lang in CONSOLE or lang in POWERSHELL:
        return Kind.SHELL
    if lang in TEXT:
        return Kind.SHELL if _LAUNCH_START.match(first) else None
    if lang in YAML:
        return Kind.YAML
    if lang in DOCKERFILE:
        return Kind.DOCKERFILE
    if lang in PYTHON:
        return Kind.PYTHON
    return None


def as_read(block: Block) -> Block:
    """The block as its reader sees it: shell sessions keep their commands only (prompt and
    continuation lines; output lines become empty), Python sessions their code."""
    lang, text = block.lang, block.text
    if lang in PYTHON and (lang == "pycon" or text.lstrip().startswith(">>>")):
        return _session(block, _PYCON, continuation=None)
    if lang in CONSOLE or (lang in SHELL | TEXT and _DOLLAR_PROMPT.search(text)):
        return _session(block, _PROMPT, continuation="\\")
    if lang in POWERSHELL:
        # ` at a line's end continues it as \ does in sh: one character for one, places kept
        block = block._replace(text=_BACKTICK_END.sub(lambda _m: "\\", text))
        if _PS_PROMPT.match(block.text):
            return _session(block, _PS_PROMPT, continuation="\\")
    return block


def _session(block: Block, prompt: re.Pattern[str], continuation: str | None) -> Block:
    lines = block.text.split("\n")[:-1]
    texts, origins = [], []
    going = False  # the previous command line ends with a continuation
    for line, origin in zip(lines, block.origins, strict=True):
        match = prompt.match(line)
        if match is not None:
            texts.append(line[match.end() :])
            origins.append(origin + match.end())
        elif going:  # a continuation line, maybe after the shell's `> ` prompt (`>> `)
            cut = len(line) - len(line.lstrip(" \t"))
            for mark in (">> ", "> "):  # PowerShell's continuation prompt, then sh's
                if line.startswith(mark, cut):
                    cut += len(mark)
                    break
            texts.append(line[cut:])
            origins.append(origin + cut)
        else:  # output
            texts.append("")
            origins.append(origin)
        going = continuation is not None and texts[-1].rstrip().endswith(continuation)
    body = "".join(t + "\n" for t in texts)
    return Block(block.lang, body, tuple(origins), block.line, block.end_line)


def read_blocks(
    doc: Document, blocks: Iterable[Block], outer: Positions, where: str = ""
) -> list[Invocation]:
    """The launches of a document's blocks (`where` names the cell they are in, if any)."""
    from vllm_lint.sources.registry import extract

    found: list[Invocation] = []
    python: list[Located] = []
    for block in blocks:
        kind = kind_of(block)
        if kind is None:
            continue
        read = as_read(block)
        located = located_block(read, outer)
        if kind is Kind.PYTHON:
            python.append(located)
            continue
        if not _mentions_vllm(read.text):
            continue
        text = placeholders.mask_angles(read.text) if kind is Kind.SHELL else read.text
        extracted = extract(doc.path, text, kind, doc.catalog_of)
        label = f"{where}{block.label}"
        found += _relabelled(extracted.invocations, remapper(doc.path, located), label, kind)
    if python:
        found += read_python(doc, joined(python), f"{where}```python blocks")
    return [placeholders.settle(inv, doc.text) for inv in found]


def read_python(doc: Document, program: Located, label: str) -> list[Invocation]:
    """Python snippets read as one program; a snippet that does not parse is left out."""
    from vllm_lint.sources.registry import extract

    if not _mentions_vllm(program.text):
        return []
    text = _parsable(program.text)
    extracted = extract(doc.path, text, Kind.PYTHON, doc.catalog_of)
    return _relabelled(extracted.invocations, remapper(doc.path, program), label, Kind.PYTHON)


def _parsable(text: str) -> str:
    """The text with the lines of any statement that stops `ast` blanked (at most 50 tries)."""
    from vllm_lint.read import pysource

    lines = text.split("\n")
    for _ in range(50):
        error = pysource.syntax_error("\n".join(lines))
        if error is None:
            break
        line = min(max(error[0], 1), len(lines))
        # blank the line and the indented block it opens, up to the next line at its indent
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        lines[line - 1] = ""
        k = line
        while k < len(lines) and (
            not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > indent
        ):
            lines[k] = ""
            k += 1
    else:
        return ""
    return "\n".join(lines)


def _mentions_vllm(text: str) -> bool:
    return "vllm" in text or "VLLM" in text or "vLLM" in text or "engine_kwargs" in text


def _relabelled(
    found: Iterable[Invocation], remap: Callable[[Span], Span], label: str, kind: Kind
) -> list[Invocation]:
    def lines(text: str) -> str:  # "line 3" of the snippet is a line of the file
        return _LINE.sub(lambda m: f"line {remap(Span('', int(m[1]), 1, int(m[1]), 2)).line}", text)

    out = []
    for inv in nested.remapped(found, remap):
        origin = label if kind is Kind.SHELL else f"{label}: {lines(inv.origin)}"
        if kind is Kind.SHELL and inv.image is not None:
            origin += ", docker run"
        evidence = tuple(e._replace(where=lines(e.where)) for e in inv.release_evidence)
        out.append(inv._replace(origin=origin, release_evidence=evidence))
    return out


_LINE = re.compile(r"\bline (\d+)")


# -- the release a document names -------------------------------------------------------------


def with_document_release(
    found: Iterable[Invocation], text: str, spans: list[tuple[int, int]], images: bool = True
) -> Iterator[Invocation]:
    """Each launch without a release of its own gets the nearest one the document names:
    in its own block first (`spans`: the first and last line of each block, 1-based).
    `images`: whether an image tag counts (in a program, it is the release of the container
    it starts, not of the program's other launches: there only installs pin)."""
    positions = FilePositions("", text)
    pins = [(positions.at(at)[0], item) for at, item in evidence_in(install_text(text), images)]
    for inv in found:
        if evidence_choice(inv) is not None or not pins or inv.anchor is None:
            yield inv
            continue
        line = inv.anchor.line
        block = next(((a, b) for a, b in spans if a <= line <= b), None)
        inside = [(at, c) for at, c in pins if block is not None and block[0] <= at <= block[1]]
        at, item = _nearest(inside or pins, line)
        yield inv._replace(
            release_evidence=(*inv.release_evidence, item._replace(where=f"line {at}"))
        )


def _nearest(pins: list[tuple[int, ReleaseEvidence]], line: int) -> tuple[int, ReleaseEvidence]:
    """The last pin written before `line` (you install, then run), else the first after it."""
    before = [pin for pin in pins if pin[0] <= line]
    return before[-1] if before else min(pins, key=lambda pin: pin[0])
