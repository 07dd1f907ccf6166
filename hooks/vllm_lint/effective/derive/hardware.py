"""The launch's world size, and the GPUs its node gives it, as ParallelConfig compares them.

ParallelConfig.__post_init__ refuses, when no executor backend is given and the launch is not
multi-node, a world size above `current_platform.device_count()` on CUDA (0.11.1
config/parallel.py:567, 0.34.0 :1164; before 0.11.1 it fell back to Ray). The world size is
tensor x pipeline parallel (0.11.1 parallel.py:511), x prefill-context parallel from 0.12
(0.12.0 parallel.py:504); data parallel ranks are other engines, not part of it.

The GPUs are what the carrier states (sources/hardware.py's grants in `gpus`, and
CUDA_VISIBLE_DEVICES): each an upper bound of what the CUDA runtime will count, so the
smallest one is. Nothing is guessed: no grant, `--gpus all`, an AMD grant or an image built
for another platform (vLLM does not check there) leave `node_gpus` out, and no rule fires.
"""

from __future__ import annotations

from vllm_lint.effective.derive.values import Put, Release, int_value
from vllm_lint.effective.settings import Settings
from vllm_lint.read import gpus


def derive_hardware(settings: Settings, release: Release, put: Put) -> None:
    sizes = ["tensor_parallel_size", "pipeline_parallel_size"]
    if release >= (0, 12, 0):
        sizes.append("prefill_context_parallel_size")
    world = 1
    for path in sizes:
        value = int_value(settings, path)
        if settings.has(path) and value is None:
            return  # opaque or not a number: no world size
        world *= value or 1
    put("world_size", world, *sizes)
    found = _node_gpus(settings)
    if found is not None:
        put("node_gpus", found[0], found[1])


def _node_gpus(settings: Settings) -> tuple[int, str] | None:
    """(the fewest GPUs any statement allows, the path of that statement), or None."""
    image = settings.get("image")
    if isinstance(image, str) and gpus.non_cuda_image(image):
        return None
    bounds: list[tuple[int, str]] = []
    grants = settings.get("gpus")
    for k, grant in enumerate(grants if isinstance(grants, list) else ()):
        if grant.get("vendor") != "nvidia":
            return None  # a ROCm node: vLLM's platform there is not CUDA
        if isinstance(grant.get("count"), int) and grant["count"] > 0:
            bounds.append((grant["count"], f"gpus.{k}"))
    for name, form in gpus.environment_forms().items():
        path = f"env.{name}"
        value = settings.get(path)
        if isinstance(value, str) and path not in settings.opaque:
            count = gpus.count_of(form, value)
            if count:
                bounds.append((count, path))
    return min(bounds) if bounds else None
