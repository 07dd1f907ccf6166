"""vLLM releases: the one place that reads a release number, wherever it is written, and
that chooses the release a launch deploys.

A launch is checked against, in order: `--vllm-version`; the image tag of its container or
service; a `vllm==X` pin in the repo (the file's folder, then each parent up to the linted
root; `repo pins` below); the configured default; the newest release this linter knows. The
choice is stated with its reason in every finding.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vllm_lint.images import ServerImage, literal_image, server_image_of
from vllm_lint.model import Invocation, ReleaseChoice, ReleaseEvidence, Token
from vllm_lint.resources import shipped_json

if TYPE_CHECKING:
    from vllm_lint.options import Options

# -- release numbers --------------------------------------------------------------------------

# 0.33.0, v0.33.0, 0.8.5.post1, 0.10.1.1: the only pattern that reads a release number
_NUMBER = r"v?(\d+)\.(\d+)\.(\d+)(?:\.(?:post)?(\d+))?"
_RELEASE = re.compile(_NUMBER)
_VERSION = r"\d+\.\d+\.\d+(?:\.(?:post)?\d+)?"  # the same without `v`, group-free
_VERSION_LIKE = re.compile(r"v?\d+\.\d+")  # a version as written, not a ref or a URL


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
    """The release as catalogued: `v0.33.0` → `0.33.0`, `0.8.5.post1` and `0.8.5.1` →
    `0.8.5.post1`, `0.10.1.1` → `0.10.1.1` (a fourth part is a release of its own, with its own
    catalog, where PyPI has one); an uncatalogued fourth part is the newest catalogued release
    of that patch below it, else the patch (`0.9.2.post3` → `0.9.2`); a patch PyPI has only as a
    post release is that release (`0.2.1` → `0.2.1.post1`); ValueError otherwise."""
    wanted = full_key(release)
    same = _patch_releases(wanted[:3])
    below = [r for r in same if full_key(r) <= wanted]
    if below and (wanted[3] or not full_key(below[-1])[3]):
        return below[-1]
    if same and not below:  # `0.2.1`: PyPI has only 0.2.1.post1, the data judged by
        return same[0]
    return ".".join(str(part) for part in wanted[:3])


def _patch_releases(patch: tuple[int, ...]) -> list[str]:
    """The catalogued releases of one patch (`0.8.5`, `0.8.5.post1`), ascending."""
    return [r for r in known_releases() if full_key(r)[:3] == patch]


def minor_of(release: str) -> str:
    """`0.33.1` → `0.33`: the series a flag catalog stands for."""
    major, minor, _patch = key(release)
    return f"{major}.{minor}"


# -- the releases this linter knows: one flag catalog per minor series ----------------------------


@lru_cache(maxsize=1)
def catalog_index() -> Mapping[str, Any]:
    """schemas/flags/index.json: the catalogued releases in order, with their files."""
    data: dict[str, Any] = shipped_json("flags", "index.json")
    return data


@lru_cache(maxsize=1)
def known_releases() -> tuple[str, ...]:
    """The catalogued releases, ascending (every release on PyPI from 0.2.0, to the patch)."""
    return tuple(sorted((e["release"] for e in catalog_index()["releases"]), key=full_key))


def newest_known() -> str:
    return known_releases()[-1]


def is_supported(release: str) -> bool:
    """A release whose minor series has a flag catalog."""
    try:
        minor = minor_of(release)
    except ValueError:
        return False
    return minor in _minors()


@lru_cache(maxsize=1)
def _minors() -> frozenset[str]:
    """The catalogued minor series (92 releases: a set, not a scan per question)."""
    return frozenset(entry["minor"] for entry in catalog_index()["releases"])


def entrypoints_of(release: str) -> Mapping[str, str]:
    """The entry points of the release whose catalog stands for `release` (module → file:line)."""
    return _entrypoints(catalog_release(release))


@lru_cache(maxsize=128)
def _entrypoints(target: str) -> Mapping[str, str]:
    # every patch is catalogued: the entry of the release itself, else the newest patch of its
    # series below it, else the series' oldest (what argv.catalog.catalog_for reads)
    minor, wanted = minor_of(target), full_key(target)
    same = [e for e in catalog_index()["releases"] if e["minor"] == minor]
    below = [e for e in same if full_key(e["release"]) <= wanted]
    chosen = below[-1] if below else same[0] if same else None
    found: Mapping[str, str] = chosen.get("entrypoints", {}) if chosen else {}
    return found


def last_with_entrypoint(entrypoint: str, before: str) -> str | None:
    """The newest catalogued release up to `before` that has `entrypoint`."""
    found = None
    for entry in catalog_index()["releases"]:
        if key(entry["release"]) <= key(before) and entrypoint in entry.get("entrypoints", {}):
            found = entry["release"]
    return found


def catalog_release(release: str) -> str:
    """The release whose flag catalog stands for `release` (the nearest one outside the range)."""
    if is_supported(release):
        return release
    known = known_releases()
    return known[0] if key(release) < key(known[0]) else known[-1]


# -- where a release is written -----------------------------------------------------------------

_IMAGE_TAG = re.compile(rf"^v?(?P<release>{_VERSION})(?:[-_.+].*)?$")
# Pins are looked for with patterns whose every repeat is bounded or stops at the line's end, so
# the work stays linear in the file whatever it holds (`vllm[` without `]` on every line, `pip
# install` a thousand times on one line …).
_EXTRAS = r"(?:\[[^\]\n]{0,200}\])?"
_PIN_SPEC = re.compile(
    rf"(?<![\w.-])[\"']?vllm{_EXTRAS}[ \t]*===?[ \t]*v?({_VERSION})"
    # PEP 508 direct references after `pip install`: a wheel's file name
    # (`…/vllm-0.6.3-cp38-abi3-manylinux1_x86_64.whl`, `vllm-0.4.0+cu118-…`) and a git
    # reference (`vllm @ git+https://github.com/vllm-project/vllm@v0.6.3`, `…/vllm.git@<sha>`),
    # whose ref is kept as written: a tag names a release, a commit or a branch names none
    rf"|[^\s\"']{{0,300}}/vllm-({_VERSION})(?:\+[\w.]{{0,40}})?-[^\s\"'/]{{0,200}}\.whl"
    r"|git\+[^\s\"'@]{0,300}/vllm(?:\.git)?@([\w.+/-]{1,120})",
    re.I,
)
_INSTALL = re.compile(r"(?:pip3?|uv[ \t]+pip)[ \t]+install\b", re.I)


def _pip_installs(text: str) -> Iterator[tuple[str, int]]:
    """(release as written, its offset) of each `vllm==X` after `pip install` on the same line
    (pip, pip3, `python -m pip`, `uv pip`), extras and quotes allowed; a wheel URL's version
    and a git reference are yielded whole (`…/vllm-0.6.3-…whl`, `git+…/vllm@v0.6.3`), read by
    `as_version`."""
    start = 0
    for line in text.split("\n"):
        if "vllm" in line or "VLLM" in line.upper():
            install = _INSTALL.search(line)
            if install is not None:
                for match in _PIN_SPEC.finditer(line, install.end()):
                    group = 1 if match.group(1) is not None else 0  # a reference: all of it
                    yield match.group(group), start + match.start(group)
        start += len(line) + 1


def known(choice: ReleaseChoice) -> ReleaseChoice:
    """A release newer than the newest catalog is judged as the newest, and said so plainly."""
    newest = newest_known()
    try:
        newer = key(choice.version) > key(newest)
    except ValueError:
        return choice
    if not newer:
        return choice
    return ReleaseChoice(
        newest,
        f"{choice.reason}: vLLM {choice.version} is newer than this vllm-lint knows; "
        f"judged as {newest}",
        guessed=True,
    )


def release_of_pin(written: str, reason: str) -> ReleaseChoice | None:
    """A version as a pin writes it (`0.9.1`, `v0.17.1+cu128`, `0.8.5.post1`, `0.10.1.1`): the
    release it names (PEP 440, read by `packaging`, loaded only when a pin is met); `reason`
    gets the text as written in place of `{}`."""
    from packaging.version import InvalidVersion, Version

    try:
        version = Version(written.strip())
    except InvalidVersion:
        return None
    if version.is_devrelease or version.is_prerelease or len(version.release) < 3:
        return None
    fourth = version.post if version.post is not None else (version.release[3:] or (0,))[0]
    as_release = ".".join(str(part) for part in (*version.release[:3], fourth))
    return known(ReleaseChoice(normalize(as_release), reason.format(written)))


_SIF = re.compile(rf"vllm-openai[_-]v?({_VERSION})[^/]*[.]sif$")


def from_image(image: str, where: str = "") -> ReleaseChoice | None:
    """The release a vLLM server image deploys, from its tag (None if it names no release);
    an Apptainer image converted from one keeps the tag in its name (`vllm-openai_v0.10.2.sif`).
    `where` is added to the reason (", the default of ${IMAGE:-…}", " (FROM, line 3)")."""
    # the last path component only, and only a `.sif`: a search of the whole name rescanned
    # the rest of it from every `vllm-openai_` in it
    sif = _SIF.search(image.rpartition("/")[2]) if image.endswith(".sif") else None
    if sif is not None:
        return known(ReleaseChoice(normalize(sif.group(1)), f"image {image}{where}"))
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
            newest,
            f"release unknown: image {image}{where} is 'latest'; judged as {newest}, the newest"
            " known",
            guessed=True,
        )
    written = _tag_release(tag, server_image_of(name))
    if written is None:
        return None
    return known(ReleaseChoice(normalize(written), f"image tag {image}{where}"))


def _tag_release(tag: str, image: ServerImage | None) -> str | None:
    """The release an image's tag names, by its entry in schemas/server-images.json: a table
    of tags (NGC's `25.10-py3`), a pattern (`rocm6.3.1_vllm_0.8.5_20250521`), else vLLM's own
    `v0.6.3`."""
    if image is not None and image.tags is not None and tag in image.tags:
        return image.tags[tag]
    pattern = _IMAGE_TAG if image is None or image.tags is None else None
    pattern = image.tag_release if image is not None and image.tag_release else pattern
    match = pattern.search(tag) if pattern is not None else None
    return match.group("release") if match else None


# -- the gate: what a file writes (evidence) → the release it deploys ---------------------------

# how the reason names each kind of pinned version (`{}`: the version as written)
_PIN_REASONS = {
    "pip": "pip install vllm=={}",
    "requirement": "vllm=={}",
    "command": "the command pins vllm@{}",
    "version": "engine.version {}",
}


def image_evidence(image: Token, where: str = "") -> ReleaseEvidence:
    """A launch's image as evidence (its tag is read by the gate, never by the reader)."""
    return ReleaseEvidence("image", image.text, where, image.opaque)


def pip_evidence(text: str, where: str = "") -> ReleaseEvidence | None:
    """The first `pip install vllm==X` of a script or a Dockerfile `RUN`, as written."""
    written = next((version for version, _at in _pip_installs(text)), None)
    return None if written is None else ReleaseEvidence("pip", written, where)


def read_evidence(item: ReleaseEvidence) -> ReleaseChoice | None:
    """The release one piece of evidence names, with its reason; None when it names none this
    linter can read (not a server image, a tag that is no release, a range…)."""
    where = f" ({item.where})" if item.where else ""
    if item.kind == "image":
        return _image_release(item, where)
    template = _PIN_REASONS.get(item.kind)
    if template is None:
        return None
    where = where.replace("{", "{{").replace("}", "}}")
    if "/" in item.text:  # a direct reference: the reason shows it as written
        shown = item.text.replace("{", "{{").replace("}", "}}")
        template = f"pip install {shown}" if item.kind == "pip" else f"vllm @ {shown}"
    return release_of_pin(as_version(item.text).strip().lstrip("vV"), template + where)


def as_version(written: str) -> str:
    """A pin as written → the version it names, as written: a direct reference (a wheel URL, a
    git URL) read by `direct_reference`, anything else as it is."""
    return direct_reference(written) if "/" in written else written


def _image_release(item: ReleaseEvidence, where: str) -> ReleaseChoice | None:
    """A server image whose tag names the release (schemas/server-images.json); for
    `${IMAGE:-vllm/vllm-openai:v0.26.0}`, its default's tag."""
    text = _tagged_server_image(item)
    if text is None:
        return None
    if text != item.text:
        where = f", the default of {item.text}{where}"
    return from_image(text, where)


def _tagged_server_image(item: ReleaseEvidence) -> str | None:
    """The literal reference of an image evidence whose tag is meant to name the release."""
    if item.kind != "image":
        return None
    text = literal_image(item.text, item.opaque)
    found = server_image_of(text) if text else None
    if found is None or not found.release_from_tag or text.endswith(":x"):
        return None
    return text


def evidence_choice(invocation: Invocation) -> ReleaseChoice | None:
    """The release the launch's own file names: its evidence in order, then its image. A
    vLLM image whose tag names no release (`nightly`, a commit, an NGC tag whose notes are
    not known), or a vllm installed from a commit or a branch, ends the search: what runs is
    that vLLM, whatever else the repo pins."""
    for item in _evidence(invocation):
        choice = read_evidence(item)
        if choice is not None:
            return choice
        if _names_none(item):
            return None
    return None


def _names_none(item: ReleaseEvidence) -> bool:
    """Evidence that decides what runs but names no release: a vLLM image with an unread tag,
    a direct reference to a commit, a branch or a local build."""
    if _tagged_server_image(item) is not None:
        return True
    if item.kind in ("pip", "requirement") and "/" in item.text:
        return not _VERSION_LIKE.match(as_version(item.text).strip())
    return False


def _unknown_own(invocation: Invocation) -> bool:
    """Whether the launch's own evidence decides what runs and names no release, before any
    evidence that names one (`evidence_choice` stopped there)."""
    for item in _evidence(invocation):
        if read_evidence(item) is not None:
            return False
        if _names_none(item):
            return True
    return False


def _evidence(invocation: Invocation) -> tuple[ReleaseEvidence, ...]:
    image = invocation.image
    if image is None or any(
        e.kind == "image" and e.text == image.text for e in invocation.release_evidence
    ):
        return invocation.release_evidence
    return (*invocation.release_evidence, image_evidence(image))


def _unread(invocation: Invocation) -> list[str]:
    """The evidence of a launch that names no release this linter knows: a server image's tag
    (`nightly`, a commit), a vllm installed from a git commit or a branch."""
    notes = []
    for item in _evidence(invocation):
        if read_evidence(item) is not None or not _names_none(item):
            continue
        if item.kind == "image":
            notes.append(f"image {item.text} names no release this vllm-lint knows")
        else:
            shown = "pip install" if item.kind == "pip" else "vllm @"
            notes.append(f"{shown} {item.text} names no release")
    return notes


# `"vllm==0.7.2"` in code (`pip_install("vllm==0.7.2")`), a quoted direct reference
# (`pip_install("vllm @ git+https://github.com/vllm-project/vllm.git@<commit>")`, Modal's
# examples), `vllm/vllm-openai-rocm:v0.19.1` anywhere
_QUOTED_PIN = re.compile(
    rf"[\"'`]vllm{_EXTRAS}(?:\s{{0,50}}===?\s{{0,50}}v?({_VERSION})"
    r"|[ \t]{0,20}@[ \t]{0,20}((?:git\+|https?://|file:)[^\s\"'`;]{1,500}))"
)
# tried at the start of a path only (the look-behind): from every character of a long
# `a/a/a/…` it rescanned the rest of it
_IMAGE_REF = re.compile(r"(?<![\w./-])[\w.-]*(?:/[\w.-]+)*/vllm-openai(?:-[a-z0-9]+)?:[\w.+-]+")


def evidence_in(text: str, images: bool = True) -> list[tuple[int, ReleaseEvidence]]:
    """Every release a document or a program names, as written, with its offset: `pip install
    vllm==X`, a quoted `"vllm==X"` requirement, a vLLM server image tagged with a release
    (`images`); a tag that names no release (`latest`, `nightly`) is not evidence here."""
    found: list[tuple[int, ReleaseEvidence]] = []
    for written, at in _pip_installs(text):
        found.append((at, ReleaseEvidence("pip", written)))
    installed = {at for at, _ in found}  # a set: `any` over the list per pin was quadratic
    for match in _QUOTED_PIN.finditer(text):
        group = 1 if match.group(1) is not None else 2
        if match.start(group) not in installed:
            found.append((match.start(group), ReleaseEvidence("requirement", match.group(group))))
    for match in _IMAGE_REF.finditer(text) if images else ():
        item = ReleaseEvidence("image", match.group(0))
        choice = read_evidence(item)
        if choice is not None and not choice.guessed:  # a release, named
            found.append((match.start(), item))
    return sorted(found, key=lambda pin: pin[0])


# -- repo pins ------------------------------------------------------------------------------------
# Exact pins only, read as the tools that install them read them (PEP 508 requirements and PEP 440
# versions through `packaging`, TOML through tomllib): `vllm==X` / `vllm===X` lines of
# requirements*.txt / constraints*.txt / *.in (extras, markers, `--hash` options and `\`
# continuations allowed; a wheel URL `vllm-X-…whl`), pyproject.toml (PEP 621 dependencies and
# extras, dependency groups, Poetry's `vllm = "X"`), the locked version in uv.lock, poetry.lock,
# pdm.lock and pylock.toml, and in a Dockerfile `FROM vllm/vllm-openai:vX` or
# `pip install vllm==X`. `0.17.1+cu128` and `0.8.5.post1` name 0.17.1 and 0.8.5. A range
# (`vllm>=0.10`) pins nothing. Two different pins in one folder are ambiguous: that folder gives
# no answer and the search stops there rather than guess.

_PIN_BYTES = 1 << 20
_MAX_PINS = 64  # requirements of one file looked at for pins (past two versions: ambiguous)
# a Dockerfile's `FROM <image>`: a pin when the image table reads a release from its tag
_FROM = re.compile(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?([^\s$]+)", re.I | re.M)
_DOCKERFILE = re.compile(r"(?i)(?:docker|container)file(?:\..+)?|.+\.(?:docker|container)file")
_LOCKS = frozenset({"uv.lock", "poetry.lock", "pdm.lock", "pylock.toml"})
_WHEEL = re.compile(r"/vllm-(\d[^-/]*)-[^/]*\.whl")
# the ref of a git URL: after the path's last `@`, before `#egg=…` or `&subdirectory=…`
_GIT_REF = re.compile(r"^git\+[^#]*@([^@#]+)(?:#.*)?$")  # the last `@`: a ref may hold `/`


def direct_reference(url: str) -> str:
    """What a PEP 508 direct reference to vllm says of its release, as written: a wheel's
    version (`…/vllm-0.6.3-cp38-abi3-manylinux1_x86_64.whl` → `0.6.3`), a git ref
    (`git+https://github.com/vllm-project/vllm@v0.6.3` → `v0.6.3`; a commit or a branch is
    kept as it is and names no release), else the URL itself (a local build, a fork's archive):
    the gate reads no release from it and says so."""
    wheel = _WHEEL.search(url.split("#", 1)[0])
    if wheel is not None:
        return wheel.group(1)
    ref = _GIT_REF.match(url)
    return ref.group(1) if ref is not None else url


def _pin_kind(name: str) -> str:
    low = name.lower()
    if low.startswith(("requirements", "constraints")) and low.endswith((".txt", ".in")):
        return "requirements"
    if low == "pyproject.toml":
        return "pyproject"
    if low in _LOCKS or (low.startswith("pylock.") and low.endswith(".toml")):
        return "lock"
    if low == "pipfile.lock":
        return "pipfile"
    if _DOCKERFILE.fullmatch(name):
        return "dockerfile"
    if _CONDA.fullmatch(low):
        return "conda"
    return ""


# conda's environment files (`environment.yml`, `environment-gpu.yaml`, MLflow's `conda.yaml`)
_CONDA = re.compile(r"(?:environment|conda)(?:[-_.][\w.-]*)?\.ya?ml")
# a conda match spec on vllm: `vllm=0.6.3`, `vllm==0.6.3`, `conda-forge::vllm=0.6.3=py310_0`
_CONDA_SPEC = re.compile(
    rf"^(?:[\w.-]+::)?vllm[ \t]*==?[ \t]*({_VERSION})(?:[ \t]*=[\w.*]+)?$", re.I
)
# `-r other.txt`, `--requirement other.txt`, `-c constraints.txt`, `--constraint=…`: pip reads
# them relative to the file that names them (pip's req_file.py)
_INCLUDE = re.compile(
    r"^[ \t]*(?:-r|-c|--requirement|--constraint)(?:[ \t]*=[ \t]*|[ \t]+|(?<=[rc]))(\S+)"
)
_MAX_INCLUDES = 8  # depth of `-r` chains followed (pip has no limit; a repo's chain is short)


def exact_pin(requirement: str) -> str | None:
    """The version a PEP 508 requirement on vllm pins exactly (`vllm[audio]==0.10.1.1; …`,
    `vllm @ https://…/vllm-0.9.2-…whl`, `vllm @ git+…@v0.6.3`: the URL), as written; None for
    other packages and ranges."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        req = Requirement(requirement.strip())
    except InvalidRequirement:
        return None
    if canonicalize_name(req.name) != "vllm":
        return None
    if req.url:
        return req.url  # the gate reads it (`as_version`)
    specs = list(req.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version
    return None


def _includes(text: str) -> list[str]:
    """The files a requirements file includes (`-r`, `-c` and their long forms), as written."""
    return [m.group(1) for m in map(_INCLUDE.match, text.split("\n")[:10_000]) if m][:_MAX_PINS]


def _conda_pins(text: str, path: str) -> tuple[list[tuple[str, int]], list[str]]:
    """A conda environment file: `- vllm=X` / `- vllm==X` in `dependencies`, the requirements
    of its `- pip:` list (PEP 508, as a requirements file reads them), and the files that list
    includes (`- -r requirements.txt`)."""
    from vllm_lint.read import yaml

    try:
        documents = [yaml.to_python(d) for d in yaml.load(path, text).documents]
    except (yaml.YamlError, RecursionError):
        return [], []
    pins: list[tuple[str, int]] = []
    included: list[str] = []
    for data in documents:
        dependencies = data.get("dependencies") if isinstance(data, dict) else None
        for item in dependencies if isinstance(dependencies, list) else []:
            spec = _CONDA_SPEC.match(item.strip()) if isinstance(item, str) else None
            if spec is not None:
                pins.append((spec.group(1), _line_of(text, "vllm", spec.group(1))))
            requirements = _strings(item.get("pip")) if isinstance(item, dict) else []
            # only the lines that may pin vllm or include a file: an exported environment
            # lists a hundred packages, vllm among the last (LocalAI's vllm.yml: line 95)
            wanted = [r for r in requirements if "vllm" in r.lower() or r.lstrip()[:1] == "-"]
            lines = "\n".join(wanted[:_MAX_PINS])
            for version, _number in _pins_of("requirements", lines):
                pins.append((version, _line_of(text, "vllm", version)))
            included += _includes(lines)
    return pins, included


def _requirement_lines(text: str) -> list[tuple[str, int]]:
    """Requirement lines with their line numbers: continuations joined, comments and pip
    options (`--hash=…`, `-r other.txt`) dropped."""
    found = []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        start = k
        parts = [lines[k]]
        while parts[-1].rstrip().endswith("\\") and k + 1 < len(lines):
            k += 1
            parts[-1] = parts[-1].rstrip()[:-1]
            parts.append(lines[k])  # joined once: `line + next` per line copied the lot
        line = " ".join(parts)
        k += 1
        line = re.sub(r"(?:^|\s)#.*", "", line)
        line = re.sub(r"\s--?[A-Za-z][\w-]*(?:[= ]\S+)?", " ", " " + line).strip()
        if line and not line.startswith("-") and "vllm" in line.lower():
            found.append((line, start + 1))
    return found


def _line_of(text: str, *needles: str) -> int:
    for number, line in enumerate(text.split("\n"), 1):
        if all(n in line for n in needles):
            return number
    return 1


def _toml(text: str) -> dict[str, Any] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):  # RecursionError: [[[[…
        return None
    return data


def _table(value: Any, *keys: str) -> dict[str, Any]:
    """`value[key][key]…` when every step is a table, else an empty one: a repo's TOML or JSON
    may hold any type where a table is expected (`tool = 1`), and that is no pin, not an error."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    """The strings of a list (anything else holds none)."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _pyproject_pins(text: str) -> list[tuple[str, int]]:
    data = _toml(text)
    if data is None:
        return []
    project = _table(data, "project")
    strings = _strings(project.get("dependencies"))
    for group in _table(project, "optional-dependencies").values():
        strings += _strings(group)
    for group in _table(data, "dependency-groups").values():
        strings += _strings(group)
    found = []
    # each is looked for in the text: only those naming vllm, and a few of them suffice
    for requirement in [r for r in strings if "vllm" in r.lower()][:_MAX_PINS]:
        version = exact_pin(requirement)
        if version is not None:
            found.append((version, _line_of(text, requirement.split(";")[0].strip())))
    poetry = _table(data, "tool", "poetry")
    tables = [_table(poetry, "dependencies")] + [
        _table(group, "dependencies") for group in _table(poetry, "group").values()
    ]
    for table in tables:
        spec = table.get("vllm")
        if isinstance(spec, dict):
            spec = spec.get("version")
        if isinstance(spec, str) and re.fullmatch(r"(?:==?)?\s*v?\d+\.\d+\.\d+\S*", spec):
            version = spec.lstrip("= ")
            found.append((version, _line_of(text, "vllm", version)))
    return found


def _lock_pins(text: str) -> list[tuple[str, int]]:
    data = _toml(text)
    if data is None:
        return []
    found = []
    packages = data.get("package") or data.get("packages")
    for package in packages if isinstance(packages, list) else []:
        if isinstance(package, dict) and str(package.get("name", "")).lower() == "vllm":
            version = package.get("version")
            if isinstance(version, str):
                found.append((version, _line_of(text, "name", '"vllm"')))
    return found


def _pipfile_pins(text: str) -> list[tuple[str, int]]:
    """Pipfile.lock (JSON): `"vllm": {"version": "==0.8.5", …}` in `default` or `develop`."""

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    found = []
    for section in ("default", "develop"):
        entry = _table(data, section).get("vllm")
        version = entry.get("version") if isinstance(entry, dict) else None
        if isinstance(version, str) and version.startswith("=="):
            found.append((version[2:].strip(), _line_of(text, '"vllm"')))
    return found


def _pins_of(kind: str, text: str) -> list[tuple[str, int]]:
    """(version as written, line) of each exact vllm pin in one file."""
    if "vllm" not in text.lower():
        return []
    if kind == "requirements":
        exact = [(exact_pin(line), number) for line, number in _requirement_lines(text)]
        return [(v, n) for v, n in exact if v is not None]
    if kind == "pyproject":
        return _pyproject_pins(text)
    if kind == "lock":
        return _lock_pins(text)
    if kind == "pipfile":
        return _pipfile_pins(text)
    found = []
    pins = [(_base_release(m.group(1)), m.start()) for m in _FROM.finditer(text)]
    pins = [(written, at) for written, at in pins if written]
    pins += _pip_installs(text)
    line, counted = 1, 0
    for written, at in sorted(pins, key=lambda pin: pin[1]):  # lines counted once, not per pin
        line += text.count("\n", counted, at)
        counted = at
        found.append((written, line))
    return found


def _base_release(image: str) -> str:
    """The release a Dockerfile's base image names (`vllm/vllm-openai:v0.12.0`,
    `rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513`), as the image table reads its tag; "" if none."""
    entry = server_image_of(image)
    last = image.partition("@")[0].rpartition("/")[2]
    tag = last.partition(":")[2]
    if entry is None or not entry.release_from_tag or tag in ("", "latest"):
        return ""
    return _tag_release(tag, entry) or ""


def pinned_release(
    path: str, root: Path, memo: dict[Path, ReleaseChoice | None] | None = None
) -> ReleaseChoice | None:
    """The release pinned nearest to `path` inside `root`, with where it was found (version
    `""`, guessed: a pin that names no release, `vllm @ git+…@<commit>`; `settled` says so).
    `memo` (one run's, from Options) keeps each folder's answer: the files of one folder
    share it."""
    try:  # realpath, not Path.resolve: that raises RuntimeError on a link loop
        top = Path(os.path.realpath(root))
        folder = Path(os.path.realpath(path)).parent
    except (OSError, ValueError):
        return None
    if not folder.is_relative_to(top):
        return None
    memo = {} if memo is None else memo
    walked: list[Path] = []
    choice: ReleaseChoice | None = None
    while True:
        if folder in memo:
            choice = memo[folder]
            break
        walked.append(folder)
        found = _pins_in(folder, top)
        if found:
            if len({version for version, _where, _written in found}) == 1:
                version, where, written = found[0]
                if version == "?":
                    choice = ReleaseChoice("", f"vllm @ {written} pinned in {where}", True)
                else:
                    choice = release_of_pin(written, f"vllm=={{}} pinned in {where}")
            break  # conflicting pins: not a guess we make
        if folder == top or folder.parent == folder:
            break
        folder = folder.parent
    for seen in walked:
        memo[seen] = choice
    return choice


def _pins_in(folder: Path, top: Path) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    try:
        with os.scandir(folder) as listing:  # names first: a stat only for pin files
            entries = sorted(e.name for e in listing if _pin_kind(e.name) and e.is_file())
    except OSError:
        return found
    for name in entries:
        found += _file_pins(folder / name, top, _pin_kind(name))
    return found


def _file_pins(
    entry: Path, top: Path, kind: str, depth: int = 0, seen: set[str] | None = None
) -> list[tuple[str, str, str]]:
    """(release, where, as written) of each pin of one file and of the files it includes
    (`-r other.txt`, relative to it, inside the repo, each file once, `_MAX_INCLUDES` deep).
    A direct reference that names no release (a commit, a branch, a local build) is the
    release `?`: a pin, but an unknown one."""
    seen = set() if seen is None else seen
    try:
        real = os.path.realpath(entry)
        stat = os.stat(real)
    except (OSError, ValueError):
        return []
    if real in seen:
        return []
    seen.add(real)
    pins, includes = _one_file_pins(entry, stat.st_mtime_ns, stat.st_size, top, kind)
    found = list(pins)
    for name in includes if depth < _MAX_INCLUDES else ():
        found += _file_pins(entry.parent / name, top, "requirements", depth + 1, seen)
    return found


@lru_cache(maxsize=1024)
def _one_file_pins(
    entry: Path, _mtime: int, _size: int, top: Path, kind: str
) -> tuple[tuple[tuple[str, str, str], ...], tuple[str, ...]]:
    """The pins of one file and the files it includes (cached while it is unchanged)."""
    text = _read_pin_file(entry, top)
    if text is None:
        return (), ()
    if kind == "conda":
        pins, includes = _conda_pins(text, str(entry))
    else:
        pins = _pins_of(kind, text)
        includes = _includes(text) if kind == "requirements" and "-" in text else []
    found = []
    for written, line in pins:
        where = f"{_shown(entry, top)}:{line}"
        version = as_version(written)
        choice = release_of_pin(version.lstrip("v"), "{}")
        if choice is not None:
            found.append((choice.version, where, version))
        elif not _VERSION_LIKE.match(version):  # a ref or URL: pinned, to no known release
            found.append(("?", where, written))
    return tuple(found), tuple(includes)


def _read_pin_file(path: Path, top: Path) -> str | None:
    """A pin file's text; a link out of the repo is never followed (files/reader.py)."""
    from vllm_lint.files.reader import read_text

    return read_text(path, _PIN_BYTES, inside=top)


def _shown(path: Path, top: Path) -> str:
    try:
        return str(Path(os.path.realpath(path)).relative_to(top))
    except (OSError, ValueError):
        return str(path)


# -- the choice -----------------------------------------------------------------------------------


def fallback(options: Options, path: str, unread: Sequence[str] = ()) -> ReleaseChoice:
    """`--vllm-version`, else the default of the file's configuration, else the newest known,
    said to be a guess (`unread`: the evidence that named no release this linter knows)."""
    if options.vllm_version:
        return ReleaseChoice(normalize(options.vllm_version), "--vllm-version")
    default = options.config_for(path).vllm_version
    if default:
        return ReleaseChoice(normalize(default), "configured default")
    newest = newest_known()
    why = "; ".join(unread) or "no image tag or pin names one"
    return ReleaseChoice(
        newest, f"release unknown: {why}; judged as {newest}, the newest known", guessed=True
    )


def for_file(path: str, options: Options) -> ReleaseChoice:
    """The release a file is read for before its launches are known (which flags make a
    YAML file a vLLM `--config` file): forced, else the repo's pin, else the fallback."""
    if options.vllm_version:
        return fallback(options, path)
    return settled(pinned_release(path, options.root, options.folder_pins), options, path)


def settled(
    pinned: ReleaseChoice | None, options: Options, path: str, unread: Sequence[str] = ()
) -> ReleaseChoice:
    """The repo's pin, else the fallback; a pin that names no release is said in the
    fallback's reason ("release unknown: vllm @ …@<commit> pinned in requirements.txt:3 names
    no release …")."""
    if pinned is None:
        return fallback(options, path, unread)
    if not pinned.version:
        return fallback(options, path, [*unread, f"{pinned.reason} names no release"])
    return pinned


def for_launch(invocation: Invocation, options: Options) -> ReleaseChoice:
    """--vllm-version, else the launch's own image tag, else a pin in the repo, else the
    configured default or the newest known release."""
    own = evidence_choice(invocation)
    if options.vllm_version:
        forced = fallback(options, invocation.path)
        if own is not None and own.version != forced.version:  # the upgrade check
            return ReleaseChoice(forced.version, f"--vllm-version (the file pins {own.version})")
        return forced
    if own is not None:
        return own
    if _unknown_own(invocation):  # the repo's pin is not what that image or install runs
        return fallback(options, invocation.path, _unread(invocation))
    pinned = pinned_release(invocation.path, options.root, options.folder_pins)
    return settled(pinned, options, invocation.path, _unread(invocation))
