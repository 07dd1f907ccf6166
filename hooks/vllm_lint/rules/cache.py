"""The built-in rule files, read once per user instead of once per run.

There are 236 small rule files; opening and parsing each costs a cold start ~10 ms, more than
any other step of a run that lints one vLLM manifest. Their parsed contents are kept in one
JSON file in the user's cache folder (`$VLLM_LINT_CACHE_DIR`, else `$XDG_CACHE_HOME/vllm-lint`,
else `~/.cache/vllm-lint`; an empty `VLLM_LINT_CACHE_DIR` turns the cache off), with the
path, size and modification time of every rule file it was made from. A run lists the rule
folders (one stat per file) and uses the cache only if that listing is the same, so an edited,
added or removed rule file is read again. The cache holds only what the files hold; it is read
with `json` (never unpickled or executed), and anything wrong with it (missing, unreadable,
another shape, another listing) means the files are read, as without a cache.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vllm_lint import __version__

# (path, size, mtime_ns) of each rule file, in the order the files are read
Listing = list[list[Any]]
_MAX_CACHE_BYTES = 64 << 20  # the 236 rule files parse to ~1 MB; a cut file is invalid JSON
Parsed = list[list[Any]]  # [path, the file's JSON] per file, in listing order


def cache_folder() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    chosen = os.environ.get("VLLM_LINT_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "vllm-lint"


def cache_file(folder: Path) -> Path | None:
    """The cache of the rules under `folder`: one per version and install location, so that
    two installs (a checkout and pre-commit's copy) do not overwrite each other's."""
    where = cache_folder()
    if where is None:
        return None
    return where / f"rules-{__version__}-{zlib.crc32(os.fsencode(folder)):08x}.json"


def listing(folder: Path) -> Listing:
    """Every `<area>/<file>.json` under `folder`, sorted, with its size and mtime."""
    found: Listing = []
    with os.scandir(folder) as areas:
        for area in sorted(areas, key=lambda e: e.name):
            if not area.is_dir():
                continue
            with os.scandir(area.path) as files:
                for entry in sorted(files, key=lambda e: e.name):
                    if entry.name.endswith(".json") and entry.is_file():
                        stat = entry.stat()
                        found.append([entry.path, stat.st_size, stat.st_mtime_ns])
    return found


def parsed_files(folder: Path, read: Callable[[Path], Any]) -> Parsed:
    """The parsed contents of the rule files under `folder`: from the cache when it was made
    from exactly these files, else read with `read` (and the cache written, if it can be)."""
    current = listing(folder)
    target = cache_file(folder)
    if target is not None:
        cached = _load(target, current)
        if cached is not None:
            return cached
    contents: Parsed = [[path, read(Path(path))] for path, _size, _mtime in current]
    if target is not None:
        _store(target, current, contents)
    return contents


def _load(target: Path, current: Listing) -> Parsed | None:
    from vllm_lint.files.reader import read_bytes

    try:  # the user's folder, yet read as any file: a regular file, capped, never blocking
        data = json.loads(read_bytes(target, _MAX_CACHE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("listing") != current:
        return None
    files = data.get("files")
    if not isinstance(files, list) or len(files) != len(current):
        return None
    if any(
        not isinstance(f, list) or len(f) != 2 or f[0] != c[0] or not _is_rule_file(f[1])
        for f, c in zip(files, current, strict=True)
    ):
        return None
    return files


def _is_rule_file(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("rules"), list)


def _store(target: Path, current: Listing, contents: Parsed) -> None:
    """Write the cache atomically (a concurrent run sees the old file or the new one); a
    folder that cannot be written is no error: the next run reads the files again."""
    text = json.dumps({"listing": current, "files": contents}, separators=(",", ":"))
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
