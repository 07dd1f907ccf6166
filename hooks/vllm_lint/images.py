"""The container images whose entrypoint is the vLLM server (`schemas/server-images.json`), and
an image reference as far as it is literal. Shared by the readers (an image's arguments are a
launch) and the release gate (a tag that names the release), so both read one table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from vllm_lint.model import Token
from vllm_lint.resources import shipped_json


class ServerImage(NamedTuple):
    id: str
    pattern: re.Pattern[str]
    # "argv", "env:NAME" (the flags are in that variable), or "command" (the entrypoint is not
    # the server: the command the image is given, `vllm serve …`, is the launch)
    args: str
    release_from_tag: bool
    tag_release: re.Pattern[str] | None = None  # how a tag names the release (group `release`)
    # the tags whose release the publisher's notes state; when given (even empty), the only
    # tags that name one unless `tag_release` reads others
    tags: Mapping[str, str] | None = None


@lru_cache(maxsize=1)
def server_images() -> tuple[ServerImage, ...]:
    entries = shipped_json("server-images.json")["images"]
    return tuple(
        ServerImage(
            e["id"],
            re.compile(e["pattern"]),
            e["args"],
            e["release_from_tag"],
            re.compile(e["tag_release"]) if "tag_release" in e else None,
            e.get("tags"),
        )
        for e in entries
    )


_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^${}]*)\}")


def image_text(image: Token) -> str:
    """The image's reference as far as it is literal: `${X:-default}` parts read as their
    default (the image the file writes when nothing overrides it), an unknown tag as `:x`, an
    unknown registry or folder kept as written (`{{ dir }}/vllm-openai_v0.10.2.sif`)."""
    return literal_image(image.text, image.opaque)


def literal_image(text: str, opaque: bool = False) -> str:
    """`image_text` of a reference as written (`opaque`: some part is not literal)."""
    if not opaque and "$" not in text:
        return text
    text = _DEFAULT.sub(lambda m: m.group(1), text)
    if not _UNKNOWN_PART.search(text):
        return text
    if not _UNKNOWN_PART.search(text.rpartition("/")[2]):
        return text
    head, slash, last = text.rpartition("/")  # the tag or digest of the last part goes
    cuts = [at for at in (last.find(":"), last.find("@")) if at >= 0]
    text = head + slash + (last[: min(cuts)] if cuts else last) + ":x"
    return "" if _UNKNOWN_PART.search(text) else text


_UNKNOWN_PART = re.compile(r"[${}`\ue000]")


def server_image_of(image: str) -> ServerImage | None:
    """The server image `image` names, if its entrypoint is the vLLM server."""
    return next((s for s in server_images() if s.pattern.search(image)), None)


def is_server_image(image: str) -> bool:
    """`vllm/vllm-openai:…`, its CPU/ROCm builds, re-publications (schemas/server-images.json),
    not the images that carry vLLM but start something else (`args: command`)."""
    found = server_image_of(image)
    return found is not None and found.args != "command"


@lru_cache(maxsize=1)
def _commands() -> frozenset[str]:
    return frozenset(shipped_json("server-images.json")["commands"]["words"])


def runs_a_command(first: Token) -> bool:
    """A server image's first argument that is a program to run, not the server's argument
    (`/bin/bash`, `sleep infinity`: schemas/server-images.json `commands`)."""
    return not first.opaque and first.text.rpartition("/")[2] in _commands()
