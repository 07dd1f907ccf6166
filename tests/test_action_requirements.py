"""hooks/action-requirements.txt, all that the GitHub Action installs: pyproject.toml's runtime
dependencies and what they need, for every supported Python and platform, pinned exactly and
by hash (tools/action_requirements.py writes it; the action installs it with
`--require-hashes --only-binary :all:`, and puts hooks/ itself on the path).

Offline: what a pinned package needs is read from its metadata as installed beside this test
(the dev environment), so a dependency that pyproject.toml gains, one that a pinned package
gains, a pin outside a dependency's range and a pin that nothing needs all fail here.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

REQUIREMENTS = REPO / "hooks" / "action-requirements.txt"
_HASH = re.compile(r"--hash=sha256:([0-9a-f]+)")


@dataclass(frozen=True)
class Pin:
    name: str  # canonical
    version: str
    marker: Marker | None
    hashes: tuple[str, ...]

    def holds(self, environment: dict[str, str]) -> bool:
        return self.marker is None or self.marker.evaluate(environment)


def read_pins(path: Path = REQUIREMENTS) -> list[Pin]:
    """The entries of a pip requirements file in hash-checking form (`name==X ; marker \\`
    then `--hash=sha256:…` lines)."""
    text = re.sub(r"\\\n", " ", path.read_text("utf-8"))
    pins = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, _, rest = line.partition(" --hash=")
        requirement = Requirement(head)
        (spec,) = requirement.specifier  # one clause, and it must be ==
        assert spec.operator == "==", line
        pins.append(
            Pin(
                canonicalize_name(requirement.name),
                spec.version,
                requirement.marker,
                tuple(_HASH.findall("--hash=" + rest)),
            )
        )
    return pins


def pinned_for(environment: dict[str, str]) -> dict[str, Pin]:
    chosen: dict[str, Pin] = {}
    for pin in read_pins():
        if pin.holds(environment):
            assert pin.name not in chosen, f"two pins of {pin.name} hold for {environment}"
            chosen[pin.name] = pin
    return chosen


def _environments() -> list[dict[str, str]]:
    """Every Python the project supports (3.10 to 3.14), on Linux, macOS and Windows."""
    platforms = [
        ("linux", "Linux", "posix"),
        ("darwin", "Darwin", "posix"),
        ("win32", "Windows", "nt"),
    ]
    found = []
    for minor, (sys_platform, system, os_name), implementation in itertools.product(
        range(10, 15), platforms, ("CPython", "PyPy")
    ):
        found.append(
            {
                "python_version": f"3.{minor}",
                "python_full_version": f"3.{minor}.0",
                "sys_platform": sys_platform,
                "platform_system": system,
                "os_name": os_name,
                "platform_python_implementation": implementation,
                "implementation_name": implementation.lower(),
                "platform_machine": "x86_64",
                "extra": "",
            }
        )
    return found


ENVIRONMENTS = _environments()


def _runtime_dependencies() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    return [Requirement(text) for text in project["dependencies"]]


def _installed_requires(pin: Pin) -> list[Requirement] | None:
    """What `pin` needs, from its installed metadata; None when it is not installed here."""
    try:
        distribution = importlib.metadata.distribution(pin.name)
    except importlib.metadata.PackageNotFoundError:
        return None
    return [Requirement(text) for text in distribution.requires or []]


def test_every_entry_is_an_exact_pin_with_sha256_hashes() -> None:
    pins = read_pins()
    assert pins
    for pin in pins:
        assert pin.hashes, f"{pin.name}: no hash"
        assert all(len(h) == 64 for h in pin.hashes), pin.name
        assert len(set(pin.hashes)) == len(pin.hashes), pin.name
    every = [h for pin in pins for h in pin.hashes]
    assert len(every) == len(set(every)), "one file's hash under two pins"


def test_the_direct_dependencies_are_pinned_inside_their_ranges_everywhere() -> None:
    for environment in ENVIRONMENTS:
        chosen = pinned_for(environment)
        for requirement in _runtime_dependencies():
            name = canonicalize_name(requirement.name)
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            assert name in chosen, f"{name} is not pinned for {environment}"
            assert requirement.specifier.contains(chosen[name].version, prereleases=True), (
                f"{name}=={chosen[name].version} is outside {requirement.specifier}"
            )


def test_the_pins_are_exactly_what_the_dependencies_need_everywhere() -> None:
    """For each environment: the pins that hold are the closure of pyproject.toml's runtime
    dependencies, each inside the range its dependent asks for."""
    unread: set[str] = set()
    for environment in ENVIRONMENTS:
        chosen = pinned_for(environment)
        needed: set[str] = set()
        queue = [
            r for r in _runtime_dependencies() if r.marker is None or r.marker.evaluate(environment)
        ]
        while queue:
            requirement = queue.pop()
            name = canonicalize_name(requirement.name)
            assert name in chosen, f"{name} (needed) is not pinned for {environment}"
            assert requirement.specifier.contains(chosen[name].version, prereleases=True), (
                f"{name}=={chosen[name].version} is outside {requirement} for {environment}"
            )
            if name in needed:
                continue
            needed.add(name)
            requires = _installed_requires(chosen[name])
            if requires is None:
                unread.add(name)  # not installed with this Python: its needs are not read
                continue
            queue += [r for r in requires if r.marker is None or r.marker.evaluate(environment)]
        assert set(chosen) == needed, f"pinned but not needed for {environment}: " + ", ".join(
            sorted(set(chosen) - needed)
        )
    # Only a package this Python does not take (tomli on 3.11+) may go unread.
    here = {**default_environment(), "extra": ""}
    assert not [p.name for p in read_pins() if p.name in unread and p.holds(here)]


def test_hooks_holds_only_the_package_and_the_requirements() -> None:
    """The action's environment puts hooks/ on sys.path: anything else there is importable."""
    entries = {p.name for p in (REPO / "hooks").iterdir()} - {"__pycache__"}
    assert entries == {"vllm_lint", "action-requirements.txt"}
