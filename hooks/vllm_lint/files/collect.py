"""Which files to lint: the paths given, folders expanded through git or a plain walk."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from vllm_lint.files.layout import SKIPPED_FOLDERS
from vllm_lint.files.reader import leads_out
from vllm_lint.files.sniff import Kind, kind_of

# Folders a plain walk never enters (a git walk already leaves out what .gitignore does).
_SKIP_DIRS = frozenset(SKIPPED_FOLDERS)


class LinkOut(str):
    """A folder argument spelt inside the root that a link leads out of it: not walked (nor
    rewritten by `--fix`); the pipeline reports it (VL921)."""


def expand(paths: Iterable[str], root: Path) -> Iterator[str]:
    """Files to lint, in a stable order, each once; explicit files are kept whatever their name.

    Memory stays flat in the size of the repo: a folder's listing is let go name by name as
    the files are linted, and names are remembered (to skip repeats) only when several paths
    were given; within one listing a repeated name is adjacent (git lists a file in conflict
    once per stage)."""
    given_paths = list(paths)
    seen: set[str] | None = set() if len(given_paths) > 1 else None
    for given in given_paths:
        if os.path.isdir(given):  # os.path, not Path: this runs for every file pre-commit passes
            if leads_out(given, root):
                yield LinkOut(_normal(given))
                continue
            found = sorted(
                (f for f in _tracked(Path(given), root) if kind_of(f) is not Kind.SKIP),
                reverse=True,
            )
        else:
            found = [given]
        previous = None
        while found:
            name = _normal(found.pop())
            if name == previous or (seen is not None and name in seen):
                continue
            previous = name
            if seen is not None:
                seen.add(name)
            yield name


def _normal(name: str) -> str:
    """`os.path.normpath`, returning the same string when it is already normal (no copy)."""
    normal = os.path.normpath(name)
    return name if normal == name else normal


def _tracked(folder: Path, root: Path) -> list[str]:
    listed = _git_files(folder)
    if listed is None:
        listed = list(_walk(folder))
    # Links to outside the root stay in the list: lint_file reports them without reading them.
    return listed


def _git_files(folder: Path) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files below `folder`, as paths that start with
    it (as the user named it), or None outside a git work tree."""
    import subprocess  # only folders need git: not on the cold path of a pre-commit run

    try:
        proc = subprocess.run(
            [
                "git",
                # a linted repo's own git config must not make git run anything
                "-c",
                "core.fsmonitor=false",
                "-C",
                str(folder),
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    base = os.fspath(folder)
    names = []
    for raw in proc.stdout.split(b"\0"):
        name = os.fsdecode(raw)  # relative to `folder` (git's default without --full-name)
        if not name or kind_of(name) is Kind.SKIP:  # by name first: most files stop here
            continue
        path = name if base in ("", ".") else os.path.join(base, name)
        if os.path.isfile(path):  # tracked but deleted in the work tree: left out
            names.append(path)
    return names


def _walk(folder: Path) -> Iterator[str]:
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in files:
            yield os.path.join(current, name)
