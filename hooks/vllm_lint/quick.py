"""The commonest run answered before the program loads: pre-commit passing files that cannot
launch vLLM (a commit that touches no vLLM file).

`answer` prints the clean summary only where the whole program would print exactly that:
every argument is a regular file (no link, within the default size, in no folder a walk leaves
out) that the byte prefilter passes over (files/sniff.py) and that holds no `vllm-lint`
comment, no configuration file governs it or the working folder, and the only options are
`-q` / `--fail-on LEVEL`. Anything else — another option, a folder, stdin, a configuration,
a file worth parsing, an error of any kind — returns None and the full program runs, so this
path can only be slower to decline, never different (tests/test_quick.py compares the two on
every real file of the test corpus). It imports nothing beyond `os`, `stat`, the prefilter
and the capped reader (files/reader.py).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import TextIO

from vllm_lint.exits import EXIT_CLEAN, FAIL_LEVELS
from vllm_lint.files import layout, reader, sniff

_QUIET = ("-q", "--quiet")
_FAIL_ON = "--fail-on"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-32 LE starts with the UTF-16 LE mark


def answer(args: Sequence[str], out: TextIO) -> int | None:
    """The exit code after printing what the full program would, or None: run it."""
    try:
        paths, quiet = _plain_files(args)
        # file by file, stopping at the first worth parsing: a commit with a vLLM file costs
        # the reads up to it, and the program reads them again
        if not paths or not all(_nothing_to_lint(path) for path in paths):
            return None
        folders = {os.getcwd()} | {os.path.abspath(os.path.dirname(p) or ".") for p in paths}
        known: dict[str, bool] = {}
        if any(_configured(folder, known) for folder in folders):
            return None
    except (OSError, ValueError):  # unreadable, a NUL in a name, …: the program says it
        return None
    if not quiet:
        from vllm_lint.report import all_clean

        out.write(all_clean(len(paths), 0) + "\n")
    return EXIT_CLEAN


def _plain_files(args: Sequence[str]) -> tuple[set[str], bool]:
    """The distinct files named (as the file collector normalizes them) and whether `-q` was
    given; no files when anything else is asked."""
    paths: set[str] = set()
    quiet = False
    rest = iter(args)
    for arg in rest:
        if arg in _QUIET:
            quiet = True
        elif arg == _FAIL_ON:
            if next(rest, None) not in FAIL_LEVELS:
                return set(), quiet
        elif arg.startswith(f"{_FAIL_ON}=") and arg.partition("=")[2] in FAIL_LEVELS:
            continue
        elif arg.startswith("-") or not arg:
            return set(), quiet
        else:
            paths.add(os.path.normpath(arg))
    return paths, quiet


def _configured(folder: str, known: dict[str, bool]) -> bool:
    """Whether a configuration file governs `folder`: one of its own, or the nearest above it
    up to the repository's top (as config.Configs finds them). `known` keeps each folder's
    answer, so that the files of one repo walk its folders once."""
    walked = []
    while folder not in known:
        walked.append(folder)
        candidates, top = layout.config_files(folder)
        if any(_governs(candidate) for candidate in candidates):
            found = True
            break
        parent = os.path.dirname(folder)
        if parent == folder or top:
            found = False
            break
        folder = parent
    else:
        found = known[folder]
    for seen in walked:
        known[seen] = found
    return found


def _governs(candidate: str) -> bool:
    if os.path.basename(candidate) != "pyproject.toml" or os.path.islink(candidate):
        return True  # a link may lead out of the repo: the program decides (and refuses it)
    return _has_table_or_fails(reader.read_bytes(candidate, layout.DEFAULT_MAX_BYTES))


def _has_table_or_fails(pyproject: bytes) -> bool:
    """A pyproject.toml the program would read as a configuration (it names vllm-lint) or
    refuse (not TOML: exit 2)."""
    if b"vllm-lint" in pyproject:
        return True
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the program's own reader decides
        return True
    try:
        tool = tomllib.loads(pyproject.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
        return True
    return not isinstance(tool, dict) or "vllm-lint" in tool  # a key spelt with escapes


def _nothing_to_lint(path: str) -> bool:
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode) or info.st_size > layout.DEFAULT_MAX_BYTES:
        return False
    parts = os.path.abspath(path).split(os.sep)[:-1]
    if not set(layout.SKIPPED_FOLDERS).isdisjoint(parts):
        return False
    kind = sniff.kind_of(path)
    if kind is sniff.Kind.SKIP:
        return True  # never read, only counted
    data = reader.read_bytes(path, layout.DEFAULT_MAX_BYTES + 1)
    if len(data) > layout.DEFAULT_MAX_BYTES or b"vllm-lint" in data:
        return False
    if b"\0" in data[:4] or data.startswith(_UTF16_BOMS):  # UTF-16/32: decoded first
        return False
    return not sniff.worth_parsing(data, kind)
