"""A `--config` path as the container sees it: which repo file (or ConfigMap key) is there.

The readers record what they know of the container's file system on each launch
(`Invocation.mounts`): a Dockerfile's `COPY`/`ADD` (with `WORKDIR`), a compose service's bind
mounts, a pod's ConfigMap volumes (`subPath`, `items`). A relative `--config` is read against
the working directory when the reader knows it, else against the folder of the file that names
it (as before); a path that no mount covers and the repo does not hold stays a VL904 note.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from vllm_lint.files import reader
from vllm_lint.model import Mount


class Target(NamedTuple):
    """Where a config's text is: a repo file, or one key of a ConfigMap in a manifest."""

    path: Path
    configmap: str = ""
    key: str = ""


def resolve(config: str, mounts: Iterable[Mount], workdir: str | None) -> Target | None:
    """The repo source of the container path `config`, if a mount covers it."""
    if not config.startswith("/"):
        if workdir is None:
            return None
        config = posixpath.join(workdir, config)
    config = posixpath.normpath(config)
    best: Target | None = None
    for mount in mounts:  # the last mount covering the path wins (a later COPY replaces)
        found = _through(mount, config)
        if found is not None:
            best = found
    return best


def _through(mount: Mount, path: str) -> Target | None:
    where = posixpath.normpath(mount.container)
    if mount.configmap:
        if mount.key:  # one key, at exactly that path (subPath, items)
            return Target(Path(mount.source), mount.configmap, mount.key) if path == where else None
        folder, name = posixpath.split(path)
        return Target(Path(mount.source), mount.configmap, name) if folder == where else None
    if path == where:
        return Target(Path(mount.source))
    if path.startswith(where.rstrip("/") + "/"):
        return Target(Path(mount.source) / path[len(where.rstrip("/")) + 1 :])
    return None


def configmap_value(yf: Any, name: str, key: str) -> Any:
    """The node of `data.<key>` of the ConfigMap `name` in a parsed manifest, or None."""
    from vllm_lint.read.yaml import get, is_mapping, text_of

    for document in yf.documents:
        if not is_mapping(document) or text_of(get(document, "kind")) != "ConfigMap":
            continue
        if text_of(get(get(document, "metadata"), "name")) != name:
            continue
        value = get(get(document, "data"), key)
        if value is not None:
            return value
    return None


_MAX_MANIFESTS = 2000  # YAML files looked at for a ConfigMap defined in another file
_SKIP = frozenset({"node_modules", "venv", "__pycache__"})


def _manifests(here: Path, root: Path) -> Iterable[Path]:
    """YAML files beside `here`, then the repo's, hidden and vendored folders left out."""
    yield from sorted(here.glob("*.y*ml"))
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP)
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")):
                yield Path(folder) / name


def configmap_manifest(yf: Any, target: Target, root: Path, max_bytes: int) -> Any:
    """The parsed manifest that defines the ConfigMap of `target`: the launch's own file, else
    a YAML file beside it, else anywhere in the repo (a bounded walk); None if none does."""
    from vllm_lint.read import yaml

    if configmap_value(yf, target.configmap, target.key) is not None:
        return yf
    here = target.path.parent
    seen = {target.path}
    needle = target.configmap.encode()
    for count, path in enumerate(_manifests(here, root)):
        if count > _MAX_MANIFESTS:
            break
        if path in seen:
            continue
        seen.add(path)
        try:  # a regular file inside the repo, capped (a link out is never followed)
            data = reader.read_bytes(path, max_bytes, inside=root)
            if b"ConfigMap" not in data or needle not in data:
                continue
            other = yaml.load(str(path.relative_to(root)), data.decode("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, yaml.YamlError):
            continue
        if configmap_value(other, target.configmap, target.key) is not None:
            return other
    return None
