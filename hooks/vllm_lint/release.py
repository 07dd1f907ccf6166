"""vLLM releases: the one place that reads a release number, wherever it is written, and
that chooses the release a launch deploys.

A launch is checked against, in order: `--vllm-version`; the image tag of its container or
service; a `vllm==X` pin in the repo (the file's folder, then each parent up to the linted
root; `repo pins` below); the configured default; the newest release this linter knows. The
choice is stated with its reason in every finding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vllm_lint.model import Invocation, ReleaseChoice
from vllm_lint.resources import schemas_dir

if TYPE_CHECKING:
    from vllm_lint.options import Options

# -- release numbers --------------------------------------------------------------------------

# 0.33.0, v0.33.0, 0.8.5.post1, 0.10.1.1: the only pattern that reads a release number
_NUMBER = r"v?(\d+)\.(\d+)\.(\d+)(?:\.(?:post)?(\d+))?"
_RELEASE = re.compile(_NUMBER)
_VERSION = r"\d+\.\d+\.\d+(?:\.(?:post)?\d+)?"  # the same without `v`, group-free


def full_key(release: str) -> tuple[int, int, int, int]:
    """Order of releases, a fourth part included (0.8.5.post1, 0.10.1.1); ValueError on text
    that is not a release."""
    match = _RELEASE.fullmatch(release.strip())
    if not match:
        raise ValueError(f"not a vLLM release: {release!r}")
    major, minor, patch, extra = match.groups()
    return int(major), int(minor), int(patch), int(extra or 0)


def key(release: str) -> tuple[int, int, int]:
    """Sort key of a release as rules bound it (major, minor, patch)."""
    return full_key(release)[:3]


def normalize(release: str) -> str:
    """`v0.33.0` → `0.33.0`, `0.8.5.post1` → `0.8.5`; ValueError for anything else."""
    return ".".join(str(part) for part in key(release))


def minor_of(release: str) -> str:
    """`0.33.1` → `0.33`: the series a flag catalog stands for."""
    major, minor, _patch = key(release)
    return f"{major}.{minor}"


# -- the releases this linter knows: one flag catalog per minor series ----------------------------


@lru_cache(maxsize=1)
def catalog_index() -> Mapping[str, Any]:
    """schemas/flags/index.json: the catalogued releases in order, with their files."""
    with (schemas_dir() / "flags" / "index.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@lru_cache(maxsize=1)
def known_releases() -> tuple[str, ...]:
    """The catalogued releases, ascending (the newest patch of each minor series)."""
    return tuple(sorted((e["release"] for e in catalog_index()["releases"]), key=full_key))


def newest_known() -> str:
    return known_releases()[-1]


def is_supported(release: str) -> bool:
    """A release whose minor series has a flag catalog."""
    try:
        minor = minor_of(release)
    except ValueError:
        return False
    return any(entry["minor"] == minor for entry in catalog_index()["releases"])


def catalog_release(release: str) -> str:
    """The release whose flag catalog stands for `release` (the nearest one outside the range)."""
    if is_supported(release):
        return release
    known = known_releases()
    return known[0] if key(release) < key(known[0]) else known[-1]


# -- where a release is written -----------------------------------------------------------------

_IMAGE_TAG = re.compile(rf"^v?({_VERSION})(?:[-_.+].*)?$")
# `pip install … vllm==X` (pip, pip3, `python -m pip`, `uv pip`), extras and quotes allowed
_PIP_INSTALL = re.compile(
    rf"(?:pip3?|uv\s+pip)\s+install\b[^\n]*?(?<![\w.-])[\"']?vllm(?:\[[^\]]*\])?\s*===?\s*v?({_VERSION})",
    re.IGNORECASE,
)


def from_image(image: str) -> ReleaseChoice | None:
    """The release a vLLM server image deploys, from its tag (None if it names no release)."""
    name, _, digest = image.partition("@")
    tag = ""
    last = name.rsplit("/", 1)[-1]
    if ":" in last:
        tag = last.split(":", 1)[1]
    if not tag and digest:
        return None
    if tag in ("", "latest"):
        newest = newest_known()
        return ReleaseChoice(
            newest, f"image {image} is 'latest': assumed the newest known {newest}"
        )
    match = _IMAGE_TAG.match(tag)
    if not match:
        return None
    return ReleaseChoice(normalize(match.group(1)), f"image tag {image}")


def pip_pin(text: str, where: str = "") -> ReleaseChoice | None:
    """The release of the first `pip install vllm==X` in a script or a Dockerfile `RUN`."""
    match = _PIP_INSTALL.search(text)
    if match is None:
        return None
    written = match.group(1)
    return ReleaseChoice(normalize(written), f"pip install vllm=={written}{where}")


# `"vllm==0.7.2"` in code (`pip_install("vllm==0.7.2")`), `vllm/vllm-openai-rocm:v0.19.1` anywhere
_QUOTED_PIN = re.compile(rf"[\"'`]vllm(?:\[[^\]]*\])?\s*===?\s*v?({_VERSION})")
_IMAGE_REF = re.compile(r"[\w.-]*(?:/[\w.-]+)*/vllm-openai(?:-[a-z0-9]+)?:[\w.+-]+")


def pins_in(text: str, images: bool = True) -> list[tuple[int, ReleaseChoice]]:
    """Every release a document or a program names, with its offset: `pip install vllm==X`,
    a quoted `"vllm==X"` requirement, a vLLM server image tagged with a release (`images`)."""
    found: list[tuple[int, ReleaseChoice]] = []
    for match in _PIP_INSTALL.finditer(text):
        written = match.group(1)
        found.append(
            (match.start(1), ReleaseChoice(normalize(written), f"pip install vllm=={written}"))
        )
    for match in _QUOTED_PIN.finditer(text):
        if not any(at == match.start(1) for at, _ in found):
            written = match.group(1)
            found.append((match.start(1), ReleaseChoice(normalize(written), f"vllm=={written}")))
    for match in _IMAGE_REF.finditer(text) if images else ():
        choice = from_image(match.group(0))
        if choice is not None and not match.group(0).endswith(":latest"):  # a release, named
            found.append((match.start(), choice))
    return sorted(found, key=lambda pin: pin[0])


# -- repo pins ------------------------------------------------------------------------------------
# Exact pins only: `vllm==X.Y.Z` in requirements*.txt / constraints*.txt, pyproject.toml (PEP 621
# strings, Poetry's `vllm = "X.Y.Z"`), lock files (uv.lock, poetry.lock, pdm.lock,
# Pipfile.lock), a wheel URL `vllm-X.Y.Z-…whl`, and in a Dockerfile
# `FROM vllm/vllm-openai:vX.Y.Z` or `pip install vllm==X.Y.Z`. A range (`vllm>=0.10`) pins
# nothing. Two different pins in one folder are ambiguous: that folder gives no answer and the
# search stops there rather than guess.

_PIN_BYTES = 1 << 20
_PINNED = rf"v?({_VERSION})"
_REQUIREMENT = re.compile(
    rf"^[ \t]*vllm(?:\[[^\]]*\])?[ \t]*===?[ \t]*{_PINNED}[ \t]*(?:[;#].*)?$"
    rf"|^[ \t]*vllm(?:\[[^\]]*\])?[ \t]*@[ \t]*\S*/vllm-{_PINNED}[-+.]\S*[ \t]*(?:[;#].*)?$",
    re.IGNORECASE | re.MULTILINE,
)
_PEP621 = re.compile(rf"[\"']vllm(?:\[[^\]]*\])?\s*===?\s*{_PINNED}\s*(?:;[^\"']*)?[\"']", re.I)
_POETRY = re.compile(
    rf"^[ \t]*vllm[ \t]*=[ \t]*(?:\{{[^}}\n]*version[ \t]*=[ \t]*)?[\"']=?=?{_PINNED}[\"']",
    re.I | re.M,
)
_FROM = re.compile(
    rf"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?\S*vllm-openai(?:-cpu)?:{_PINNED}\S*", re.I | re.M
)
_DOCKERFILE = re.compile(r"(?i)(?:docker|container)file(?:\..+)?|.+\.(?:docker|container)file")
# uv.lock, poetry.lock, pdm.lock: a `[[package]]` table named vllm with its exact version
_TOML_LOCK = re.compile(
    rf"^\[\[package\]\][ \t]*\r?\nname[ \t]*=[ \t]*[\"']vllm[\"'][ \t]*\r?\n"
    rf"version[ \t]*=[ \t]*[\"']{_PINNED}[\"']",
    re.M,
)
# Pipfile.lock: "vllm": {"hashes": [...], "version": "==0.8.5"}
_PIPFILE_LOCK = re.compile(rf"\"vllm\"\s*:\s*\{{[^{{}}]*?\"version\"\s*:\s*\"==\s*{_PINNED}\"")


def _patterns(name: str) -> tuple[re.Pattern[str], ...]:
    low = name.lower()
    if low.startswith(("requirements", "constraints")) and low.endswith((".txt", ".in", ".lock")):
        return (_REQUIREMENT,)
    if low in ("uv.lock", "poetry.lock", "pdm.lock"):
        return (_TOML_LOCK,)
    if low == "pipfile.lock":
        return (_PIPFILE_LOCK,)
    if low == "pyproject.toml":
        return (_PEP621, _POETRY)
    if _DOCKERFILE.fullmatch(name):
        return (_FROM, _PIP_INSTALL)
    return ()


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
            if len({version for version, _where in found}) > 1:
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


@lru_cache(maxsize=1024)
def _file_pins(
    entry: Path, _mtime: int, _size: int, top: Path, patterns: tuple[re.Pattern[str], ...]
) -> tuple[tuple[str, str], ...]:
    """The pins of one file (cached while the file is unchanged)."""
    text = _read_pin_file(entry, top)
    if text is None:
        return ()
    found = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            version = next(g for g in match.groups() if g)
            line = text.count("\n", 0, match.start()) + 1
            found.append((normalize(version), f"{_shown(entry, top)}:{line}"))
    return tuple(found)


def _read_pin_file(path: Path, top: Path) -> str | None:
    try:
        if not path.resolve().is_relative_to(top):
            return None  # a link out of the repo is never followed
        with open(path, "rb") as handle:
            data = handle.read(_PIN_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace")


def _shown(path: Path, top: Path) -> str:
    try:
        return str(path.resolve().relative_to(top))
    except ValueError:
        return str(path)


# -- the choice -----------------------------------------------------------------------------------


def fallback(options: Options, path: str) -> ReleaseChoice:
    """`--vllm-version`, else the default of the file's configuration, else the newest known."""
    if options.vllm_version:
        return ReleaseChoice(normalize(options.vllm_version), "--vllm-version")
    default = options.config_for(path).vllm_version
    if default:
        return ReleaseChoice(normalize(default), "configured default")
    newest = newest_known()
    return ReleaseChoice(newest, f"no image tag names a release: assumed the newest known {newest}")


def for_file(path: str, options: Options) -> ReleaseChoice:
    """The release a file is read for before its launches are known (which flags make a
    YAML file a vLLM `--config` file): forced, else the repo's pin, else the fallback."""
    if options.vllm_version:
        return fallback(options, path)
    return pinned_release(path, options.root) or fallback(options, path)


def for_launch(invocation: Invocation, options: Options) -> ReleaseChoice:
    """--vllm-version, else the launch's own image tag, else a pin in the repo, else the
    configured default or the newest known release."""
    if options.vllm_version:
        forced = fallback(options, invocation.path)
        pinned = invocation.version_hint
        if pinned is not None and pinned.version != forced.version:  # the upgrade check
            return ReleaseChoice(forced.version, f"--vllm-version (the file pins {pinned.version})")
        return forced
    if invocation.version_hint is not None:
        return invocation.version_hint
    return pinned_release(invocation.path, options.root) or fallback(options, invocation.path)
