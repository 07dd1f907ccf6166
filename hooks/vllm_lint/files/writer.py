"""The one way a file is written: `--fix`, `--write-baseline` and any writer to come.

A write replaces a regular file inside the repo root (or creates one), never through a link:
every folder between the root and the file, and the file itself, must be what it says and not
a link (a repo can plant `vllm-lint-baseline.json -> /home/you/.bashrc`, or a folder
`deploy -> /etc`). Where the platform can, the folders are opened one by one relative to the
previous one with O_NOFOLLOW, so a link swapped in between the check and the write is refused
too. The new text goes to a temporary file in the same folder, takes the old file's mode, and
replaces the file with `os.replace`: a reader sees the old file or the new one, never half, and
a hard link to the old file elsewhere keeps the old content.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_NEW_FLAGS |= getattr(os, "O_BINARY", 0)
# Linux and the BSDs resolve names relative to an open folder; elsewhere (Windows) the same
# checks run on whole paths. (os.replace is not listed in supports_dir_fd; it is rename's call.)
_AT = {os.open, os.stat, os.chmod, os.rename, os.unlink} <= os.supports_dir_fd


class NotWritable(OSError):
    """Outside the root, through a link, or not a regular file: `strerror` says which."""


def _refuse(path: str, why: str) -> NotWritable:
    return NotWritable(errno.EPERM, why, path)


def parts_inside(root: Path, path: str | os.PathLike[str]) -> list[str]:
    """The names from `root` down to `path` (the last one the file's), by their spelling, not
    their real location: a path that names a place outside `root` is refused."""
    name = os.fspath(path)
    target = os.path.abspath(name)
    for base in (os.path.abspath(root), os.path.realpath(root)):
        relative = os.path.relpath(target, base)
        if relative != os.curdir and relative.split(os.sep, 1)[0] != os.pardir:
            return relative.split(os.sep)
    raise _refuse(name, "outside the repository (vllm-lint writes only inside it)")


def anchor(root: Path, path: str | os.PathLike[str]) -> Path:
    """The folder a write is checked from: `root` for a path spelt inside it (no link on the
    whole way down from the repo's top), else the file's own folder — a path the caller named
    outside the repo (`--write-baseline ../b.json`) is the caller's place, yet the file itself
    is never a link and is still replaced whole."""
    spelt, base = os.path.abspath(path), os.path.abspath(root)
    if spelt.startswith(base if base.endswith(os.sep) else base + os.sep):
        return root
    return Path(os.path.dirname(spelt))


def check_writable(root: Path, path: str | os.PathLike[str]) -> None:
    """Refuse (NotWritable) what `write_inside` would refuse, writing nothing: a fixer asks
    before it does the work."""
    name = os.fspath(path)
    folder = os.path.abspath(root)
    *folders, last = parts_inside(root, path)
    for part in folders:
        folder = os.path.join(folder, part)
        info = os.lstat(folder)
        if stat.S_ISLNK(info.st_mode):
            raise _refuse(name, f"{part}/ in its path is a link (vllm-lint writes through none)")
        if not stat.S_ISDIR(info.st_mode):
            raise _refuse(name, f"{part} in its path is not a folder")
    try:
        info = os.lstat(os.path.join(folder, last))
    except FileNotFoundError:
        return
    _check_target(name, info)


def _check_target(name: str, info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(name, "a link (vllm-lint writes through none)")
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(name, "not a regular file")


def write_inside(root: Path, path: str | os.PathLike[str], data: bytes) -> None:
    """Replace (or create) the regular file `path` inside `root` with `data`, atomically,
    keeping its mode. OSError (NotWritable for a link, a folder, a device, a path outside
    `root`) when it cannot."""
    name = os.fspath(path)
    try:
        _write(root, name, data)
    except NotWritable:
        raise
    except OSError as exc:  # named by the whole path, not by the folder or temporary file
        raise OSError(exc.errno, exc.strerror, name) from None


def _write(root: Path, name: str, data: bytes) -> None:
    path = name
    if not _AT:
        check_writable(root, path)
        _replace(name, os.path.abspath(name), data, None)
        return
    *folders, last = parts_inside(root, path)
    fd = os.open(os.path.abspath(root), _DIR_FLAGS)  # the root itself may be reached by a link
    try:
        for part in folders:
            try:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):  # a link, a file
                    raise _refuse(name, f"{part} in its path is a link or not a folder") from None
                raise
            os.close(fd)
            fd = inner
        _replace(name, last, data, fd)
    finally:
        os.close(fd)


def _replace(name: str, target: str, data: bytes, fd: int | None) -> None:
    """Write `data` to a new file beside `target` (a name in the open folder `fd`, else a whole
    path), then rename it over `target`."""
    where: dict[str, Any] = {"dir_fd": fd} if fd is not None else {}
    try:
        info: os.stat_result | None = os.stat(target, follow_symlinks=False, **where)
    except FileNotFoundError:
        info = None
    if info is not None:
        _check_target(name, info)
    folder = os.path.dirname(target)
    temporary = os.path.join(folder, f".{os.path.basename(target)}.{os.urandom(6).hex()}.tmp")
    out = os.open(temporary, _NEW_FLAGS, 0o666, **where)  # 0o666: the umask decides, as open()
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(out, view) :]
        finally:
            os.close(out)
        if info is not None:  # the file keeps its mode (an executable script stays one)
            os.chmod(temporary, stat.S_IMODE(info.st_mode), **where)
        os.replace(temporary, target, src_dir_fd=fd, dst_dir_fd=fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, **where)
        raise


def write_output(root: Path, path: str, text: str, append: bool = False) -> None:
    """A report the caller names (`--sarif-file`, `--summary-file`): inside the repo, as any
    write (`write_inside`: a link the repo planted is refused; appending reads the old text
    through files/reader.py); outside it, the caller's own place ($GITHUB_STEP_SUMMARY, the
    runner's temporary folder), which the repo does not control, written as named."""
    data = text.encode("utf-8")
    try:
        parts_inside(root, path)
    except NotWritable:
        with open(path, "ab" if append else "wb") as handle:  # outside the repo: the caller's
            handle.write(data)
        return
    if append:
        from vllm_lint.files.reader import read_bytes

        with contextlib.suppress(FileNotFoundError):  # none yet: the report starts it
            data = read_bytes(path, _MAX_APPENDED, inside=root) + data
    write_inside(root, path, data)


_MAX_APPENDED = 1 << 30  # a job summary is capped at 1 MiB by GitHub; this only bounds memory
