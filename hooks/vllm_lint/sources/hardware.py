"""What a launch's carrier says of its node's GPUs, as the hardware table (schemas/hardware.json)
lists it: a container's `resources`, a compose service's device reservations, a launcher's
options (`docker run --gpus`, `srun --gres`) and a batch script's `#SBATCH` lines.

Readers only report the evidence (`GpuGrant`, with where it is written); what vLLM makes of it
is effective/derive/hardware.py's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from vllm_lint.files.textpos import Positions
from vllm_lint.model import GpuGrant, Span
from vllm_lint.read import gpus
from vllm_lint.read.yaml import YamlFile, get, is_mapping, is_sequence, items, span, text_of
from vllm_lint.sources.launchers import Wrapped


def of_container(yf: YamlFile, container: Any) -> tuple[GpuGrant, ...]:
    """A Kubernetes container's GPU limits (its requests when the limits name none)."""
    resources = get(container, "resources")
    if not is_mapping(resources):
        return ()
    for entry in gpus.carriers("kubernetes"):
        section = get(resources, entry["section"])
        if not is_mapping(section):
            continue
        found = []
        for name, _key, value in items(section):
            vendor = entry["resources"].get(name)
            text = text_of(value)
            if vendor is None or text is None:
                continue
            how = f"{name} {entry['section'][:-1]}"  # `nvidia.com/gpu limit`
            found.append(GpuGrant(gpus.count_of(entry["form"], text), span(yf, value), how, vendor))
        if found:
            return tuple(found)
    return ()


def of_compose_service(yf: YamlFile, service: Any) -> tuple[GpuGrant, ...]:
    """`deploy.resources.reservations.devices`: the GPU entries' `count` or `device_ids`."""
    devices = get(get(get(get(service, "deploy"), "resources"), "reservations"), "devices")
    if not is_sequence(devices):
        return ()
    found = []
    for device in devices.value:
        if not is_mapping(device):
            continue
        driver = text_of(get(device, "driver"))
        capabilities = get(device, "capabilities")
        caps = [text_of(c) for c in capabilities.value] if is_sequence(capabilities) else []
        if driver != "nvidia" and "gpu" not in caps:
            continue
        vendor = "amd" if driver == "amd" else "nvidia"
        ids = get(device, "device_ids")
        count = get(device, "count")
        if is_sequence(ids):
            # an entry may hold several ids (`["5,6"]`: the runtime gets NVIDIA_VISIBLE_DEVICES=5,6)
            texts = [text_of(i) for i in ids.value]
            n: int | None = None
            if all(t is not None for t in texts):
                n = gpus.count_of("device-list", ",".join(t for t in texts if t)) or None
            found.append(GpuGrant(n, span(yf, ids), "compose device_ids", vendor))
        elif count is not None:
            text = text_of(count) or ""
            n = None if text == "all" else gpus.count_of("count", text)
            found.append(GpuGrant(n, span(yf, count), "compose devices count", vendor))
        else:  # no count and no ids: every GPU of the host (compose's default, `all`)
            found.append(GpuGrant(None, span(yf, device), "compose devices", vendor))
    return tuple(found)


def of_launchers(seen: Iterable[Wrapped]) -> tuple[GpuGrant, ...]:
    """The GPU options of the launchers a command passed through (`docker run --gpus 2`)."""
    table = gpus.launcher_options()
    found = []
    for wrapped in seen:
        options = table.get(wrapped.launcher.id)
        if not options:
            continue
        for name, value in wrapped.options:
            form = options.get(name)
            if form is None or value.opaque:
                continue
            how = f"{wrapped.launcher.id} {name}"
            found.append(GpuGrant(gpus.count_of(form, value.text), value.span, how))
    return tuple(found)


_DIRECTIVE = re.compile(r"^[ \t]*(#[A-Z]+)[ \t]+(.*)$", re.MULTILINE)


def of_directives(text: str, positions: Positions) -> tuple[GpuGrant, ...]:
    """`#SBATCH --gres=gpu:4` lines (scheduler directives are comments to the shell)."""
    if "#SBATCH" not in text:
        return ()
    table = gpus.directive_options()
    found = []
    for match in _DIRECTIVE.finditer(text):
        options = table.get(match.group(1))
        if options is None:
            continue
        words = match.group(2).split("#", 1)[0].split()
        for k, word in enumerate(words):
            name, eq, value = word.partition("=")
            if name not in options:
                continue
            if not eq:
                if k + 1 >= len(words):
                    continue
                value = words[k + 1]
            at = match.start(2) + match.group(2).find(value, match.group(2).find(name))
            line, col = positions.at(at)
            where = Span(positions.path, line, col, line, col + len(value))
            how = f"{match.group(1)} {name}"
            found.append(GpuGrant(gpus.count_of(options[name], value), where, how))
    return tuple(found)


def merged(*grants: Sequence[GpuGrant]) -> tuple[GpuGrant, ...]:
    """Grants from several places of one launch, each once."""
    out: list[GpuGrant] = []
    for group in grants:
        out += [g for g in group if g not in out]
    return tuple(out)
