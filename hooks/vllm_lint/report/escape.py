"""Text from a linted repo (file names, values, YAML messages) made safe to print.

Whatever reaches a terminal or a CI log may come from an untrusted pull request. It must not
drive the terminal (escape sequences), reorder what is shown (bidi controls), break one message
into several lines, or be read by the GitHub runner as a workflow command (`::cmd::` at a
line's start, the legacy `##[cmd]` anywhere on a line).
"""

from __future__ import annotations

import re
import secrets

_COMMAND_START = re.compile(r"^(\s*):(?=:)")  # `::cmd::` after blanks, as the runner reads it
_LEGACY = "##["  # the runner's legacy form, parsed anywhere on a line


def _escaped(ch: str) -> str:
    if ch.isspace() and ch not in "\n\r\t\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029":
        return " "  # a no-break or other Unicode space: shown as a space
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """Control, format (bidi, zero-width) and separator characters written as escapes
    (`\\x1b`, `\\u202e`): visible, and inert. A tab stays; so do newlines when asked."""
    if text.isprintable():
        return text
    kept = "\t\n" if keep_newlines else "\t"
    return "".join(ch if ch.isprintable() or ch in kept else _escaped(ch) for ch in text)


def one_line(text: str) -> str:
    """A message as one printable line (an error message, a log line)."""
    return printable(text).replace("\t", " ")


def inert(line: str) -> str:
    """One printable line that the GitHub runner does not read as a workflow command: a
    leading `::` and any `##[` are broken up by a backslash."""
    line = one_line(line).replace(_LEGACY, "##\\[")
    return _COMMAND_START.sub(r"\1\\:", line)


def stop_commands() -> tuple[str, str]:
    """The lines that stop and resume the runner's reading of workflow commands, with a
    token no text printed in between can know."""
    token = secrets.token_hex(16)
    return f"::stop-commands::{token}", f"::{token}::"
