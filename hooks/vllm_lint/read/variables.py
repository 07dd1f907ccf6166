"""Literal variables feeding an install line, substituted so that the release gate reads the
version as it is installed: `VLLM_VERSION=0.9.1` then `pip install vllm==${VLLM_VERSION}` in a
script, `${VLLM_VERSION:-0.9.1}`, a Dockerfile's `ARG`/`ENV`, SkyPilot's `envs`.

Line by line, linear in the text: an assignment of a literal (`NAME=value`, `export NAME=value`,
`ARG NAME=value`, `ENV NAME=value`) is remembered; a reference on a line that mentions vllm
is replaced by the value assigned before it, else by its `:-` default, else left as written
(which then names no release). Only the text the gate reads changes: nothing is run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_ASSIGNMENT = re.compile(
    r"^[ \t]*(?:(?:export|readonly|declare|local|ARG|ENV)[ \t]+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)=[\"']?([\w.+-]*)[\"']?[ \t]*(?:[;#].*)?$"
)


def substitute(text: str, values: Mapping[str, str | None]) -> str:
    """`text` with each `$NAME`, `${NAME}`, `${NAME:-default}` whose value is known replaced."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        known = values.get(name)
        if known:
            return known
        default = match.group(2)
        return default if default is not None else match.group(0)

    return REFERENCE.sub(value, text) if "$" in text else text


def install_text(text: str, known: Mapping[str, str | None] | None = None) -> str:
    """`text` with the references on its vllm lines read from the literal assignments above
    them (and `known`, what the file's context sets); lines keep their places."""
    values: dict[str, str | None] = dict(known or {})
    out = []
    for line in text.split("\n"):
        assigned = _ASSIGNMENT.match(line) if "=" in line else None
        if assigned is not None:
            values[assigned.group(1)] = assigned.group(2)
        elif "$" in line and "vllm" in line.lower():
            line = substitute(line, values)
        out.append(line)
    return "\n".join(out)
