"""The vLLM release a repository pins, for files whose own image names none.

Looked for in the file's folder, then each parent up to the linted root (never above):
exact pins only — `vllm==X.Y.Z` in requirements*.txt / constraints*.txt, pyproject.toml
(PEP 621 strings, Poetry's `vllm = "X.Y.Z"`), a wheel URL `vllm-X.Y.Z-…whl`, and in a
Dockerfile `FROM vllm/vllm-openai:vX.Y.Z` or `pip install vllm==X.Y.Z`. A range
(`vllm>=0.10`) pins nothing. Two different pins in the same folder are ambiguous: that
folder gives no answer and the search stops there rather than guess.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from vllm_lint.model import ReleaseChoice
from vllm_lint.release import normalize

_MAX_BYTES = 1 << 20
_VERSION = r"v?(\d+\.\d+\.\d+(?:\.post\d+)?)"
_REQUIREMENT = re.compile(
    rf"^\s*vllm(?:\[[^\]]*\])?\s*===?\s*{_VERSION}\s*(?:[;#].*)?$"
    rf"|^\s*vllm(?:\[[^\]]*\])?\s*@\s*\S*/vllm-{_VERSION}[-+.]\S*\s*(?:[;#].*)?$",
    re.IGNORECASE | re.MULTILINE,
)
_PEP621 = re.compile(rf"[\"']vllm(?:\[[^\]]*\])?\s*===?\s*{_VERSION}\s*(?:;[^\"']*)?[\"']", re.I)
_POETRY = re.compile(
    rf"^\s*vllm\s*=\s*(?:\{{[^}}]*version\s*=\s*)?[\"']=?=?{_VERSION}[\"']", re.I | re.M
)
_FROM = re.compile(
    rf"^\s*FROM\s+(?:--platform=\S+\s+)?\S*vllm-openai(?:-cpu)?:{_VERSION}\S*", re.I | re.M
)
_PIP = re.compile(
    rf"(?:pip3?|uv\s+pip)\s+install\b[^\n]*?(?<![\w.-])[\"']?vllm(?:\[[^\]]*\])?\s*===?\s*{_VERSION}",
    re.I,
)
_DOCKERFILE = re.compile(r"(?i)(?:docker|container)file(?:\..+)?|.+\.(?:docker|container)file")


def pinned_release(path: str, root: Path) -> ReleaseChoice | None:
    """The release pinned nearest to `path` inside `root`, with where it was found."""
    try:
        top = root.resolve()
        folder = Path(path).resolve().parent
    except OSError:
        return None
    if not folder.is_relative_to(top):
        return None
    while True:
        found = _pins_in(folder, top)
        if found:
            versions = {version for version, _where in found}
            if len(versions) > 1:
                return None  # conflicting pins: not a guess we make
            version, where = found[0]
            return ReleaseChoice(version, f"vllm=={version} pinned in {where}")
        if folder == top or folder.parent == folder:
            return None
        folder = folder.parent


def _pins_in(folder: Path, top: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    try:
        entries = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return found
    for entry in entries:
        patterns = _patterns(entry.name)
        if patterns:
            try:
                stat = entry.stat()
            except OSError:
                continue
            found += _file_pins(entry, stat.st_mtime_ns, stat.st_size, top, patterns)
    return found


def _patterns(name: str) -> tuple[re.Pattern[str], ...]:
    low = name.lower()
    if low.startswith(("requirements", "constraints")) and low.endswith((".txt", ".in")):
        return (_REQUIREMENT,)
    if low == "pyproject.toml":
        return (_PEP621, _POETRY)
    if _DOCKERFILE.fullmatch(name):
        return (_FROM, _PIP)
    return ()


@lru_cache(maxsize=1024)
def _file_pins(
    entry: Path, _mtime: int, _size: int, top: Path, patterns: tuple[re.Pattern[str], ...]
) -> tuple[tuple[str, str], ...]:
    """The pins of one file (cached while the file is unchanged)."""
    text = _read(entry, top)
    if text is None:
        return ()
    found = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            version = next(g for g in match.groups() if g)
            line = text.count("\n", 0, match.start()) + 1
            found.append((normalize(version), f"{_shown(entry, top)}:{line}"))
    return tuple(found)


def _read(path: Path, top: Path) -> str | None:
    try:
        if not path.resolve().is_relative_to(top):
            return None  # a link out of the repo is never followed
        with open(path, "rb") as handle:
            data = handle.read(_MAX_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace")


def _shown(path: Path, top: Path) -> str:
    try:
        return str(path.resolve().relative_to(top))
    except ValueError:
        return str(path)
