"""Values vLLM computes from the flags before its validators run, added under `derived.*`.

Rules in schemas/ test these instead of re-deriving them in every schema. One module per
subsystem; each value cites where vLLM computes it (file:line of the 0.33.0 wheel unless
noted). A value that would need a guess (an unknown model, an opaque word) is left out, so no
rule fires on it. The steps run in the order below: a later one may read an earlier one's
values.
"""

from __future__ import annotations

import re

from vllm_lint.effective.derive import (
    compilation,
    engine,
    hardware,
    kv_transfer,
    mamba,
    model_runner,
    models,
    parallel,
    scheduler,
    serve,
    speculative,
    structured_outputs,
)
from vllm_lint.effective.derive.values import Derived
from vllm_lint.effective.settings import Settings
from vllm_lint.release import key

# matched on the image's last path component (after its last `/`): a search of the whole name
# for `:1.2.3[^/]*$` took quadratic time on `:1.1.1:1.1.1…/`
_PINNED_TAG = re.compile(r":v?\d+\.\d+\.\d+")
_DIGEST = re.compile(r"@sha256:[0-9a-f]{64}")


def _pinned(image: str) -> bool:
    last = image.rpartition("/")[2]
    return bool(_PINNED_TAG.search(last)) or bool(_DIGEST.fullmatch(image[-72:]))


def derive(settings: Settings) -> None:
    release = key(settings.release.version)
    out = Derived(settings)
    speculative.derive_speculative(settings, release, out)
    models.derive_model(settings, release, out)
    mamba.derive_mamba(settings, release, out)
    kv_transfer.derive_kv_transfer(settings, release, out)
    model_runner.derive_model_runner(settings, release, out)
    # The image a container or service runs, and whether its tag names a release
    # (for organisation policies in rule packs: "pin the vLLM image").
    image = settings.get("image")
    if isinstance(image, str):
        out.put("image_pinned", _pinned(image), "image")
    put = out.put
    serve.derive_frontend(settings, release, put)
    serve.derive_serve_mode(settings, release, put)
    serve.derive_lb_modes(settings, release, put)
    serve.derive_dp_launch(settings, release, put)
    serve.derive_multi_port(settings, release, put)
    serve.derive_lora_modules(settings, release, put)
    parallel.derive_parallel(settings, release, put)
    parallel.derive_numa_ranges(settings, put)
    compilation.derive_custom_ops(settings, put)
    hardware.derive_hardware(settings, release, put)
    scheduler.derive_batch_and_kernels(settings, release, put)
    structured_outputs.derive_structured_outputs(settings, release, put)
    scheduler.derive_hisparse(settings, put)
    engine.derive_engine(settings, release, put)
    compilation.derive_cudagraph_sizes(settings, release, put)
    compilation.derive_split_cudagraph_sizes(settings, release, put)
    compilation.derive_split_sizes_max(settings, release, put)
    model_runner.derive_model_runner_features(settings, release, put)
