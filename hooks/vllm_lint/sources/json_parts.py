"""Where each key of a JSON argv word is written in the file (issue 26: a finding on
`tensor_parallel_size` inside `--speculative-config '{…}'` points at that key, not the flag).

One step for every reader: the word's decoded text is matched back against the file's text
from where the word starts (`files/textpos.align_scalar`: YAML quoting and folding, shell
quotes and backslashes, a Python dict's own quotes), and a member is located only where the
file holds its key verbatim at the matched place; otherwise findings keep the word's span.
Readers that build the JSON themselves (a `--config` file's nested mapping) give the parts
from their own nodes (`vllm_config.argv_of`)."""

from __future__ import annotations

from vllm_lint.files.textpos import FilePositions, align_scalar
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.read.jsonpos import members


def located(invocations: list[Invocation], path: str, text: str) -> list[Invocation]:
    """The invocations, their JSON words given the places of their members."""
    positions: FilePositions | None = None
    out = []
    for inv in invocations:
        if not any(_json_word(t, path) for t in inv.argv):
            out.append(inv)
            continue
        positions = positions or FilePositions(path, text)
        argv = tuple(
            _with_parts(t, text, positions) if _json_word(t, path) else t for t in inv.argv
        )
        out.append(inv._replace(argv=argv))
    return out


def _json_word(tok: Token, path: str) -> bool:
    return (
        not tok.opaque
        and not tok.parts
        and tok.span.path == path
        and tok.text.lstrip().startswith("{")
    )


def _with_parts(tok: Token, text: str, positions: FilePositions) -> Token:
    found = members(tok.text)
    if not found:
        return tok
    start = positions.offset(tok.span.line - 1, tok.span.col - 1)
    block = text[start : start + 1] in ("|", ">")  # a YAML block scalar: its text starts below
    mapped = align_scalar(tok.text, text, start, positions, block)

    def written(first: int, end: int) -> int | None:
        """The file offset where tok.text[first:end] stands verbatim, by the alignment."""
        line, col = mapped.at(first)
        at = positions.offset(line - 1, col - 1)
        return at if text.startswith(tok.text[first:end], at) and end > first else None

    parts = []
    for m in found:
        key = written(m.key_start, m.key_end)
        if key is None:
            continue
        begin = key - 1 if key and text[key - 1] in "\"'" else key  # the key's opening quote
        finish = key + (m.key_end - m.key_start)
        raw = tok.text[m.value_start : m.value_end]
        if raw[:1] not in "{[":  # a scalar: the span runs to its end
            inner = 1 if raw.startswith('"') and raw.endswith('"') and len(raw) > 1 else 0
            value = written(m.value_start + inner, m.value_end - inner)
            if value is not None and value >= finish:
                finish = value + (m.value_end - m.value_start - 2 * inner)
                finish += 1 if inner and text[finish : finish + 1] in ("'", '"') else 0
        parts.append((m.path, _span(positions, begin, finish)))
    return tok._replace(parts=tuple(parts))


def _span(positions: FilePositions, start: int, end: int) -> Span:
    line, col = positions.at(start)
    end_line, end_col = positions.at(max(start, end - 1))
    return Span(positions.path, line, col, end_line, end_col + 1)
