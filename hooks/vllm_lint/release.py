"""vLLM release numbers: parsing, ordering, and which release a file deploys."""

from __future__ import annotations

import re

from vllm_lint.argv import catalog
from vllm_lint.model import ReleaseChoice

_RELEASE = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:\.(?:post)?\d+)?")
_IMAGE_TAG = re.compile(r"^v?(\d+\.\d+\.\d+(?:\.post\d+)?)(?:[-_.+].*)?$")


def key(release: str) -> tuple[int, int, int]:
    """Sort key of a release; raises ValueError on text that is not one."""
    match = _RELEASE.fullmatch(release.strip())
    if not match:
        raise ValueError(f"not a vLLM release: {release!r}")
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


def in_range(release: str, first: str | None, last: str | None) -> bool:
    """Whether `release` lies in [first, last] (either bound may be open)."""
    k = key(release)
    return (first is None or key(first) <= k) and (last is None or k <= key(last))


def newest_known() -> str:
    return catalog.known_releases()[-1]


def is_supported(release: str) -> bool:
    """A release whose minor series has a flag catalog."""
    try:
        catalog.catalog_for(release)
    except (KeyError, ValueError):
        return False
    return True


def normalize(release: str) -> str:
    """`v0.33.0` → `0.33.0`; raises ValueError for anything else."""
    match = _RELEASE.fullmatch(release.strip())
    if not match:
        raise ValueError(f"not a vLLM release: {release!r}")
    return ".".join(match.group(k) for k in (1, 2, 3))


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
    release = normalize(match.group(1))
    return ReleaseChoice(release, f"image tag {image}")
