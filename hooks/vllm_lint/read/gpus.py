"""The hardware table (schemas/hardware.json) and the forms in which carriers write a number of
GPUs: each read into an upper bound of the GPUs a launch's node gives it, or None (unknown).

Shared by the readers (sources/hardware.py: a pod's limits, `docker run --gpus`, `#SBATCH`)
and the derived values (effective/derive/hardware.py: CUDA_VISIBLE_DEVICES)."""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from vllm_lint.resources import shipped_json

MAX_GPUS = 1 << 20  # beyond any node; a longer number is a typo or hostile input, not a count
_COUNT = re.compile(r"\s*\d{1,7}\s*")
_TYPED = re.compile(r"(?:[\w.-]+:)?(\d{1,7})")
# `gpu`, `gpu:4`, `gpu:a100:4`, `gpu:a100:4(S:0-1)`, `gpu:4(IgnoreBinding)`
_GRES_GPU = re.compile(r"gpu(?::[\w.-]+)??(?::(\d{1,7}))?(?:\([^)]*\))?")


@lru_cache(maxsize=1)
def table() -> Mapping[str, Any]:
    data: Mapping[str, Any] = shipped_json("hardware.json")
    return data


@lru_cache(maxsize=8)  # one per carrier kind the readers ask for
def carriers(kind: str) -> tuple[Mapping[str, Any], ...]:
    """The table's entries for one carrier (`kubernetes`, `slurm`, `container`, …)."""
    return tuple(c for c in table()["carriers"] if c["carrier"] == kind)


# The table's views below are asked for on every launch: each built once.
@lru_cache(maxsize=1)
def launcher_options() -> Mapping[str, Mapping[str, str]]:
    """launcher id (`docker run`, `srun`) → {option: form}."""
    found: dict[str, dict[str, str]] = {}
    for entry in table()["carriers"]:
        for launcher in entry.get("launchers", ()):
            found.setdefault(launcher, {}).update(entry["options"])
    return found


@lru_cache(maxsize=1)
def directive_options() -> Mapping[str, Mapping[str, str]]:
    """`#SBATCH` → {option: form}."""
    return {e["directive"]: e["options"] for e in table()["carriers"] if "directive" in e}


def escapes_directives(via: str) -> bool:
    """A launch run by `via` (`docker run`) that a job's directives do not bound."""
    return any(via in e.get("not_inside", ()) for e in table()["carriers"] if "directive" in e)


@lru_cache(maxsize=1)
def environment_forms() -> Mapping[str, str]:
    """Environment variables that bound the GPUs a process sees → their form."""
    return {e["variable"]: e["form"] for e in table()["carriers"] if "variable" in e}


@lru_cache(maxsize=1)
def _non_cuda() -> re.Pattern[str]:
    return re.compile(table()["non_cuda_images"]["pattern"], re.IGNORECASE)


def non_cuda_image(image: str) -> bool:
    """An image built for a platform whose world size vLLM does not check against GPUs."""
    return bool(_non_cuda().search(image.rpartition("/")[2] + "/" + image))


def count_of(form: str, text: str) -> int | None:
    """The number of GPUs `text` states in `form`, or None when it cannot be counted."""
    text = text.strip().strip("'")
    reader = _READERS.get(form)
    found = reader(text) if reader is not None else None
    return found if found is not None and found < MAX_GPUS else None


def _count(text: str) -> int | None:
    text = text.strip('"')
    return int(text) if _COUNT.fullmatch(text) else None


def _typed_count(text: str) -> int | None:
    total = 0
    for part in text.strip('"').split(","):
        match = _TYPED.fullmatch(part.strip())
        if match is None:
            return None
        total += int(match.group(1))
    return total


def _gres(text: str) -> int | None:
    """The GPUs among Slurm's generic resources (`gpu:a100:4,shard:2`); None without any."""
    total, seen = 0, False
    for part in re.split(r",(?![^()]*\))", text.strip('"')):
        part = part.strip()
        if not part.startswith("gpu"):
            continue
        match = _GRES_GPU.fullmatch(part)
        if match is None:
            return None
        seen = True
        total += int(match.group(1)) if match.group(1) else 1
    return total if seen else None


def _docker_gpus(text: str) -> int | None:
    """docker/cli opts/gpus.go: CSV fields; a bare field is `all` or a count, else key=value."""
    if len(text) > 4096:
        return None
    try:
        fields = next(csv.reader([text]))
    except (csv.Error, StopIteration):
        return None
    count: int | None = None
    devices: int | None = None
    for field in fields:
        key, eq, value = field.partition("=")
        if not eq:
            key, value = "count", key
        if key == "count":
            if value == "all":
                return None
            count = _count(value)
            if count is None:
                return None
        elif key == "device":
            devices = len([d for d in value.split(",") if d.strip()])
    if count is not None and devices is not None:
        return None  # "cannot set both Count and DeviceIDs on device request"
    return devices if devices is not None else count


def _device_list(text: str) -> int | None:
    text = text.strip('"')
    if not text or text.lower() in ("all", "none", "void", "-1"):
        return None
    entries = [e for e in text.split(",") if e.strip()]
    return len(entries) or None


_READERS = {
    "count": _count,
    "typed-count": _typed_count,
    "gres": _gres,
    "docker-gpus": _docker_gpus,
    "device-list": _device_list,
}
