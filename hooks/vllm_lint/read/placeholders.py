"""Placeholders that documentation and code comments put where the reader writes their own
value: `<model>`, `[MODEL-PATH]`, `{TOKENIZER_NAME}`, `...`. They are unknown values (opaque
words), never checked and never shown as anything but what was written. `$MODEL` and
`{{ model }}` are opaque already (the shell lexer and the template masks see to them)."""

from __future__ import annotations

import re

from vllm_lint.model import Invocation, Token
from vllm_lint.read.shell import TEMPLATE_MARK

# `<model>`, `<n_of_tokens>`, `<engine arguments>`; not `<<EOF`, `2>&1` nor `< file`
_ANGLE = re.compile(r"(?<![<\w])<[A-Za-z_][\w./:=-]*(?: [A-Za-z_][\w./:=-]*){0,4}>")
PLACEHOLDER = re.compile(
    r"(?<![<\w])<[A-Za-z_][\w./:=-]*>"  # <model>
    r"|\[[A-Za-z_][\w.-]*\]"  # [MODEL-PATH], [options]
    r"|(?<![$\w{])\{[A-Za-z_][\w.]*\}(?!\})"  # {TOKENIZER_NAME}
    r"|\.\.\.|…"  # ...
)


def mask_angles(text: str) -> str:
    """`<model>` would be read by a shell as redirections: its brackets become marks (same
    length, so every position stays), which make the word holding them opaque."""
    if "<" not in text:
        return text
    return _ANGLE.sub(lambda m: re.sub("[<> ]", TEMPLATE_MARK, m.group(0)), text)


def settle(inv: Invocation, text: str) -> Invocation:
    """Words holding a placeholder are opaque; opaque words are shown as the file writes them
    (one line of `text`, the file's text) rather than as the marks they were read with."""
    lines: list[str] | None = None

    def fix(tok: Token) -> Token:
        nonlocal lines
        opaque = tok.opaque or bool(PLACEHOLDER.search(tok.text))
        shown = tok.text
        if (
            opaque
            and (TEMPLATE_MARK in shown or "{{…}}" in shown)
            and tok.span.line == tok.span.end_line
        ):
            if lines is None:
                lines = text.split("\n")
            if 0 < tok.span.line <= len(lines):
                written = lines[tok.span.line - 1][tok.span.col - 1 : tok.span.end_col - 1]
                written = written.strip()
                for quote in "\"'":  # quotes of the shell or of the code around the word
                    if written.count(quote) % 2 or (written[:1] == written[-1:] == quote):
                        written = written.replace(quote, "")
                shown = written or shown
        if opaque == tok.opaque and shown == tok.text:
            return tok
        return Token(shown, tok.span, opaque)

    argv = tuple(fix(t) for t in inv.argv)
    env = {name: fix(t) for name, t in inv.env.items()}
    if argv == inv.argv and env == inv.env:
        return inv
    return inv._replace(argv=argv, env=env, partial=inv.partial or any(t.opaque for t in argv))
