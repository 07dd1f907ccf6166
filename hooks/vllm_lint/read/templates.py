"""Templated YAML (Helm/Go `{{ }}`, Terraform `${…}` / `%{ … }`, envsubst, Python `{name}`),
read on a best-effort basis without rendering anything.

The text is masked to the same length, line by line, so every position stays true:
control actions and lines that only inject content are blanked, the `else` branches of
conditionals and the bodies of `define` are blanked (one possible rendering: every `if`
taken), and each remaining expression becomes `TEMPLATE_MARK` characters, which make the
words holding them opaque. Literal flags around them are still checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePath
from typing import NamedTuple

from vllm_lint.read.shell import TEMPLATE_GAP, TEMPLATE_MARK

TEMPLATE_SUFFIXES = frozenset({".tpl", ".tftpl", ".tmpl", ".gotmpl", ".j2", ".jinja", ".jinja2"})
_TF_DIRECTIVE = re.compile(r"%\{~?\s*(if|else|endif|for|endfor)\b[^}]*~?\}")
_DOLLAR_BRACE = re.compile(r"(?<!\$)\$\{[^}\n]*\}")
_PY_FIELD = re.compile(
    r"(?<![{\w$])\{[A-Za-z_][A-Za-z0-9_]*(?:[.\[][^{}\s]*)?(?::[^{}\s]*)?\}(?!\})"
)


class Masked(NamedTuple):
    text: str  # same length and lines as the original
    flavor: str  # "go", "terraform", "format", or "" when nothing was masked
    first_line: int  # line of the first template construct (1-based), for the report


def is_template_name(path: str) -> bool:
    return PurePath(path).suffix.lower() in TEMPLATE_SUFFIXES


_GO_ACTION = re.compile(r"(?<![$])\{\{-?\s*[-.$\w(\"/]")  # not GitHub's `${{ expr }}`


# A `{{` where YAML starts a flow mapping (at a line's start, after `key:`, `- `, `[` or `,`):
# the action is not inside a quoted string, so plain YAML would misread it.
_BARE_ACTION = re.compile(r"(?:^|[:\-\[,?])[ \t]*\{\{-?\s*[-.$\w(\"/]", re.M)


def has_go_actions(text: str) -> bool:
    """Helm/Go template actions (`{{ .Values.x }}`, `{{- if … }}`, `{{ include … }}`)."""
    return "{{" in text and "}}" in text and _GO_ACTION.search(text) is not None


def has_bare_actions(text: str) -> bool:
    """Go actions that YAML would read as flow mappings (`name: {{ .Release.Name }}`)."""
    return "{{" in text and _BARE_ACTION.search(text) is not None


def bare_action_lines(text: str) -> list[int]:
    """The lines (1-based) of the actions `has_bare_actions` finds."""
    if "{{" not in text:
        return []
    return [text.count("\n", 0, m.start()) + 1 for m in _BARE_ACTION.finditer(text)]


def mask(text: str, path: str) -> Masked:
    """Mask every template construct of `text`; the flavor is decided by what it holds."""
    if has_go_actions(text):
        return _mask_go(text)
    chars = list(text)
    flavor = ""
    first = 0
    if _found(_TF_DIRECTIVE, text) or (is_template_name(path) and _found(_DOLLAR_BRACE, text)):
        flavor = "terraform"
        first = _mask_terraform(text, chars)
    elif is_template_name(path) and _found(_PY_FIELD, text):
        flavor = "format"
        first = _mask_pattern(text, chars, _PY_FIELD)
    result = "".join(chars)
    return Masked(_blank_lone_marks(result), flavor, first)


# -- Go / Helm -----------------------------------------------------------------------------


def _action_end(text: str, start: int) -> int:
    """Index after the `}}` that closes the action opened at `start` (strings skipped)."""
    i, n = start + 2, len(text)
    while i < n:
        ch = text[i]
        if ch in '"`':
            close = text.find(ch, i + 1)
            while ch == '"' and close > 0 and text[close - 1] == "\\":
                close = text.find(ch, close + 1)
            i = n if close < 0 else close + 1
            continue
        if text.startswith("}}", i):
            return i + 2
        if ch == "\n" and text.startswith("{{", i + 1):
            return i  # an unterminated action: stop at the line end
        i += 1
    return n


def _mask_go(text: str) -> Masked:
    chars = list(text)
    # a stack of (keyword, dropping-before, dropping-now)
    stack: list[tuple[str, bool, bool]] = []
    dropping = False
    first = 0
    i = 0
    n = len(text)
    last = 0
    while True:
        start = text.find("{{", i)
        if start < 0:
            break
        if dropping:
            _blank(chars, last, start)
        end = _action_end(text, start)
        if not first:
            first = text.count("\n", 0, start) + 1
        inner = text[start + 2 : end - 2].strip().lstrip("-").strip()
        word = inner.split(None, 1)[0] if inner.split() else ""
        if inner.startswith("/*"):
            word = "comment"
        if word in ("if", "with", "range", "define", "block"):
            body_dropped = dropping or word in ("define", "block")
            stack.append((word, dropping, body_dropped))
            dropping = body_dropped
            _blank(chars, start, end)
        elif word == "else":
            if stack:
                kind, before, _now = stack[-1]
                stack[-1] = (kind, before, True)
            dropping = True
            _blank(chars, start, end)
        elif word == "end":
            if stack:
                _kind, before, _now = stack.pop()
                dropping = before
            else:
                dropping = False
            _blank(chars, start, end)
        elif word in ("comment", "template") or dropping:
            _blank(chars, start, end)
        else:
            for k in range(start, end):
                if chars[k] != "\n":
                    chars[k] = TEMPLATE_MARK
        i = last = end
    if dropping:
        _blank(chars, last, n)
    return Masked(_gap_block_lines(text, _blank_lone_marks("".join(chars))), "go", first or 1)


_COMMENT = re.compile(r"[ \t]#")


def _opens_block_scalar(line: str) -> bool:
    """`key: |`, `- >-`, `args: |2  # note`: the line opens a YAML block scalar. Read from the
    line's end, in time linear in its length (a pattern with a key and list dashes before the
    indicator backtracked as the square of a long line of dashes)."""
    body = _COMMENT.split(line, 1)[0].rstrip()
    head = body.rstrip("-+0123456789")  # chomping and indentation indicators
    if not head.endswith(("|", ">")):
        return False
    before = head[:-1]
    if before and before[-1] not in " \t":
        return False
    lead = before.strip()
    return not lead or lead.endswith(":") or not lead.replace("-", "").replace(" ", "").strip()


def _gap_block_lines(text: str, masked: str) -> str:
    """In a YAML block scalar (a script under `args: - >-` or `command: - |`), a line the mask
    emptied (a `{{- if }}`, `{{- end }}`, a branch not taken) is not an empty line of the
    scalar in the rendering: Helm's `{{-` trims the line break before it. Such a line gets
    TEMPLATE_GAP from the scalar's indentation on, which YAML reads as text and scripts drop
    with the line break before it (read/shell.drop_gaps), so the flags on both sides stay one
    command line, at their own lines and columns."""
    if "{{" not in text:
        return masked
    lines, out = text.split("\n"), masked.split("\n")
    k = 0
    while k < len(lines):
        line = lines[k]
        opens = ("|" in line or ">" in line) and "{{" not in line
        if not opens or not _opens_block_scalar(line):
            k += 1
            continue
        parent = len(line) - len(line.lstrip(" "))
        body = k + 1
        end = body
        while end < len(lines) and (
            not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip(" ")) > parent
        ):
            end += 1
        content = [j for j in range(body, end) if out[j].strip()]
        if content:
            indent = len(out[content[0]]) - len(out[content[0]].lstrip(" "))
            for j in range(body, end):
                if lines[j].strip() and not out[j].strip() and len(out[j]) > indent:
                    out[j] = out[j][:indent] + TEMPLATE_GAP * (len(out[j]) - indent)
        k = max(end, k + 1)
    return "\n".join(out)


# -- Terraform / envsubst / str.format -----------------------------------------------------


def _mask_terraform(text: str, chars: list[str]) -> int:
    first = 0
    depth_drop: list[bool] = []
    dropping = False
    last = 0
    for match in _closed(_TF_DIRECTIVE, text):
        if not first:
            first = text.count("\n", 0, match.start()) + 1
        if dropping:
            _blank(chars, last, match.start())
        word = match.group(1)
        if word in ("if", "for"):
            depth_drop.append(dropping)
        elif word == "else":
            dropping = True
        elif word in ("endif", "endfor"):
            dropping = depth_drop.pop() if depth_drop else False
        _blank(chars, match.start(), match.end())
        last = match.end()
    for match in _closed(_DOLLAR_BRACE, text):
        if chars[match.start()] != " ":
            first = first or text.count("\n", 0, match.start()) + 1
            for k in range(match.start(), match.end()):
                chars[k] = TEMPLATE_MARK
    return first or 1


def _mask_pattern(text: str, chars: list[str], pattern: re.Pattern[str]) -> int:
    first = 0
    for match in _closed(pattern, text):
        first = first or text.count("\n", 0, match.start()) + 1
        for k in range(match.start(), match.end()):
            chars[k] = TEMPLATE_MARK
    return first or 1


# -- helpers -------------------------------------------------------------------------------


def _closed(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern that ends at a `}` (and whose body holds no
    `}`), searched only where a `}` can still end it: within one line up to its last `}` when
    the body stops at line ends too. Every attempt then either matches or fails at once, so a
    line of ten thousand `${` without a `}` costs linear time, not quadratic."""
    if "\\n" not in pattern.pattern:  # the body may span lines: stop at the text's last `}`
        yield from pattern.finditer(text, 0, text.rfind("}") + 1)
        return
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        close = text.rfind("}", start, end)
        if close >= 0:
            yield from pattern.finditer(text, start, close + 1)
        start = end + 1


def _found(pattern: re.Pattern[str], text: str) -> bool:
    return next(_closed(pattern, text), None) is not None


def _blank(chars: list[str], start: int, end: int) -> None:
    for k in range(start, min(end, len(chars))):
        if chars[k] not in "\n\r":
            chars[k] = " "


def _blank_lone_marks(text: str) -> str:
    """A line holding nothing but template output injects unknown YAML: leave it out."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        stripped = line.strip()
        if stripped and set(stripped) <= {TEMPLATE_MARK, " "} and TEMPLATE_MARK in stripped:
            lines[k] = " " * len(line)
    return "\n".join(lines)


def display(text: str) -> str:
    """Display text for a word that held masked characters."""
    return re.sub(f"{TEMPLATE_MARK}+", "{{…}}", text)
