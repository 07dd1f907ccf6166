"""The one way a file of the linted repo is read: regular files only, never blocking, capped.

Everything that reads a file a repo holds goes through here: the pipeline, `--config` files a
launch names, release pins, rule packs, suppressions in other files, and the reporters'
excerpts. A FIFO, a device (`/dev/zero`), a socket or a folder is refused before it is read
(a FIFO is opened non-blocking, so a missing writer cannot hang the run); at most `limit`
bytes are read; with `inside`, a path whose real location is outside that folder (a link out
of the repo) is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # no pathlib at run time: quick.py reads through here before anything loads
    from pathlib import Path

_FIRST_READ = 64 * 1024
_MAX_LIMIT = 1 << 31  # os.read takes a C ssize_t; no linted file is this large
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FLAGS |= getattr(os, "O_BINARY", 0)


class NotReadable(OSError):
    """Not a regular file, or outside the folder it must be in: `strerror` says which."""


def _refuse(path: str, why: str) -> NotReadable:
    return NotReadable(errno.EINVAL, why, path)


def read_bytes(path: str | os.PathLike[str], limit: int, inside: Path | None = None) -> bytes:
    """Up to `limit` bytes of a regular file. OSError (NotReadable for a FIFO, device, folder
    or a path outside `inside`) when it cannot be read."""
    name = os.fspath(path)
    limit = min(limit, _MAX_LIMIT)
    if inside is not None and not is_inside(name, inside):
        raise _refuse(name, "outside the linted folder")
    if not stat.S_ISREG(os.stat(name).st_mode):  # before open: a device is never opened
        raise _refuse(name, "not a regular file")
    fd = os.open(name, _FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else meanwhile
            raise _refuse(name, "not a regular file")
        # A short first read, so that a small file does not cost a buffer of `limit` bytes.
        data = os.read(fd, min(limit, _FIRST_READ))
        while len(data) < limit:
            more = os.read(fd, limit - len(data))
            if not more:
                break
            data += more
        return data
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int, inside: Path | None = None) -> str | None:
    """A regular file's text (UTF-8, bad bytes replaced), or None when it cannot be read."""
    try:
        data = read_bytes(path, limit, inside)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    return data.decode("utf-8", errors="replace")


def is_inside(path: str | os.PathLike[str], folder: Path) -> bool:
    """Whether the real location of `path` (links resolved) is `folder` or below it."""
    try:
        real, base = os.path.realpath(path), os.path.realpath(folder)
    except (OSError, ValueError):
        return False
    return real == base or real.startswith(base if base.endswith(os.sep) else base + os.sep)


def spelt_inside(path: str | os.PathLike[str], folder: Path) -> bool:
    """Whether `path`, as written (links not resolved), names `folder` or a place below it."""
    spelt, base = os.path.abspath(path), os.path.abspath(folder)
    return spelt == base or spelt.startswith(base if base.endswith(os.sep) else base + os.sep)


def leads_out(path: str | os.PathLike[str], folder: Path) -> bool:
    """Whether `path` is spelt inside `folder` but really lies outside it: a link (the path's
    own, or a folder's on the way) the repo planted to leave it."""
    return spelt_inside(path, folder) and not is_inside(path, folder)


def lines_of(text: str) -> list[str]:
    """The lines of a text as findings count them: split at `\\n` only (a `\\r` before it is
    dropped), as git and GitHub number lines; a lone `\\r`, NEL or U+2028 is no line break."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
