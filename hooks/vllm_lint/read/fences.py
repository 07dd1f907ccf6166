"""The code blocks of documentation: Markdown / MDX fences and reStructuredText directives.

Each block keeps where every line of its body starts in the text it was found in, so that a
reader given the body alone (a shell script, a YAML document) reports places in the file.
Indentation shared by the body (a fence under a list item or an mkdocs tab, an rst
directive) is removed, as the renderer does; nothing else is changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# ```lang title="…", ~~~ {.bash}, ````md: three or more backticks or tildes, any indent
# (CommonMark allows three spaces; mkdocs tabs and MDX components indent further).
_FENCE = re.compile(r"([ \t]*)(`{3,}|~{3,})(.*)")
_LANG = re.compile(r"[{.\s]*([\w+#.-]*)")
# .. code-block:: bash, .. code:: console, .. sourcecode:: yaml, .. prompt:: bash $
_DIRECTIVE = re.compile(
    r"([ \t]*)\.\.[ \t]+(code-block|code|sourcecode|prompt|highlight)::[ \t]*(\S*)"
)
_OPTION = re.compile(r"[ \t]+:[\w-]+:")


class Block(NamedTuple):
    """One code block: its language, its body and where each body line starts."""

    lang: str  # lower-cased, "" when none is given
    text: str  # the body, shared indentation removed, "\n" after each line
    origins: tuple[int, ...]  # offset in the outer text of each body line's first character
    line: int  # 0-based line of the opening fence or directive in the outer text
    end_line: int  # 0-based line where the block ends (its closing fence, its last line)

    @property
    def label(self) -> str:
        return f"```{self.lang} block" if self.lang else "``` block"


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its newline) for every line of `text`."""
    out = []
    at = 0
    for line in text.split("\n"):
        out.append((at, line.rstrip("\r")))
        at += len(line) + 1
    if out and out[-1][1] == "" and text.endswith("\n"):
        out.pop()
    return out


def _body(lines: list[tuple[int, str]], strip: int) -> tuple[str, tuple[int, ...]]:
    """Join body lines with up to `strip` leading blanks removed from each."""
    texts, origins = [], []
    for offset, line in lines:
        cut = 0
        while cut < strip and cut < len(line) and line[cut] in " \t":
            cut += 1
        texts.append(line[cut:] + "\n")
        origins.append(offset + cut)
    return "".join(texts), tuple(origins)


def lang_of(info: str) -> str:
    match = _LANG.match(info)
    return match.group(1).lower() if match else ""


def markdown_blocks(text: str) -> Iterator[Block]:
    """Fenced code blocks of Markdown / MDX, in order; those inside HTML comments are left
    out (a commented-out command is not shown to readers)."""
    lines = _lines(text)
    k = 0
    in_comment = False
    while k < len(lines):
        line = lines[k][1]
        if in_comment:
            in_comment = "-->" not in line
            k += 1
            continue
        match = _FENCE.fullmatch(line)
        if match is None or (match.group(2)[0] == "`" and "`" in match.group(3)):
            start = line.rfind("<!--")
            in_comment = start >= 0 and "-->" not in line[start:]
            k += 1
            continue
        indent, marker = len(match.group(1)), match.group(2)
        close = re.compile(rf"[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*")
        end = k + 1
        while end < len(lines) and not close.fullmatch(lines[end][1]):
            end += 1
        body, origins = _body(lines[k + 1 : end], indent)
        yield Block(lang_of(match.group(3)), body, origins, k, min(end, len(lines) - 1))
        k = end + 1


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def rst_blocks(text: str) -> Iterator[Block]:
    """`.. code-block::` / `.. code::` / `.. sourcecode::` / `.. prompt::` directives and `::`
    literal blocks (in the language of the last `.. highlight::`, else untagged)."""
    lines = _lines(text)
    highlight = ""
    k = 0
    while k < len(lines):
        line = lines[k][1]
        match = _DIRECTIVE.match(line)
        literal = (
            match is None and line.rstrip().endswith("::") and not line.lstrip().startswith("..")
        )
        if match is None and not literal:
            k += 1
            continue
        base = _indent(line)
        if match is not None and match.group(2) == "highlight":
            highlight = match.group(3).lower()
            k += 1
            continue
        lang = match.group(3).lower() if match is not None else highlight
        body_start = k + 1
        while body_start < len(lines) and match is not None and _OPTION.match(lines[body_start][1]):
            body_start += 1  # directive options (`:caption:`), before the blank line
        while body_start < len(lines) and not lines[body_start][1].strip():
            body_start += 1  # the blank line before the body
        end = body_start
        while end < len(lines) and (not lines[end][1].strip() or _indent(lines[end][1]) > base):
            end += 1
        last = end
        while last > body_start and not lines[last - 1][1].strip():
            last -= 1
        body_lines = lines[body_start:last]
        if body_lines:
            strip = min(_indent(t) for _o, t in body_lines if t.strip())
            body, origins = _body(body_lines, strip)
            yield Block(lang, body, origins, k, last - 1)
        k = max(end, k + 1)
