"""Text from a linted repo (file names, values, YAML messages) made safe to print.

Whatever reaches a terminal or a CI log may come from an untrusted pull request. It must not
drive the terminal (escape sequences), reorder what is shown (bidi controls), break one message
into several lines, or be read by the GitHub runner as a workflow command (`::cmd::` at a
line's start, the legacy `##[cmd]` anywhere on a line).
"""

from __future__ import annotations

import re

_COMMAND_START = re.compile(r"^(\s*):(?=:)")  # `::cmd::` after blanks, as the runner reads it
# GitHub's legacy `##[cmd]` and Azure Pipelines' `##vso[cmd]`, read anywhere on a line
_LEGACY = re.compile(r"##(vso)?\[", re.IGNORECASE)
_MENTION = re.compile(r"(?<![\w@#])([@#])(?=\w)")


def _escaped(ch: str) -> str:
    if ch.isspace() and ch not in "\n\r\t\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029":
        return " "  # a no-break or other Unicode space: shown as a space
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, keep_newlines: bool = False, keep: str = "") -> str:
    """Control, format (bidi, zero-width) and separator characters written as escapes
    (`\\x1b`, `\\u202e`): visible, and inert. A tab stays; so do newlines when asked, and the
    characters in `keep` (the zero-width space that keeps `@name` from being a mention)."""
    if text.isprintable():
        return text
    kept = ("\t\n" if keep_newlines else "\t") + keep
    return "".join(ch if ch.isprintable() or ch in kept else _escaped(ch) for ch in text)


def one_line(text: str) -> str:
    """A message as one printable line (an error message, a log line)."""
    return printable(text).replace("\t", " ")


def inert(line: str) -> str:
    """One printable line that no CI runner reads as a command: a leading `::` and any `##[`
    (`##vso[`) are broken up by a backslash."""
    return neutral(one_line(line))


def no_legacy_commands(text: str) -> str:
    """`##[` and `##vso[`, read as a command anywhere on a line, broken up by a backslash."""
    return _LEGACY.sub(lambda m: m.group()[:-1] + "\\[", text)


def neutral(text: str) -> str:
    """`inert` for text already printable, newlines kept (an annotation's message)."""
    text = no_legacy_commands(text)
    return "\n".join(_COMMAND_START.sub(r"\1\\:", line) for line in text.split("\n"))


def no_mentions(text: str) -> str:
    """`@name` and `#123` written with a zero-width space after `@`/`#`: in a job summary or
    a comment they stay text, never a mention or a link to an issue."""
    return _MENTION.sub("\\1\u200b", text)


def https_url(url: str) -> str | None:
    """A link target for Markdown and SARIF: an https:// address with nothing that could end
    the link or add markup (percent-encoded), else None (the text is shown without a link)."""
    from urllib.parse import quote, urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme != "https" or not parts.netloc or not url.isprintable():
        return None
    return quote(url, safe=":/?#@$&*+,;=%-._~")  # no ( ) [ ] ! ' < > space: they end links


def stop_commands() -> tuple[str, str]:
    """The lines that stop and resume the runner's reading of workflow commands, with a
    token no text printed in between can know."""
    import secrets  # here: it costs 5 ms at start-up, and only the github format needs it

    token = secrets.token_hex(16)
    return f"::stop-commands::{token}", f"::{token}::"
