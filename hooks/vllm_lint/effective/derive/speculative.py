"""Speculative decoding: whether a launch drafts tokens, how many, and the method vLLM
settles on."""

from __future__ import annotations

from typing import Any

from vllm_lint.effective.derive.values import Derived, Release
from vllm_lint.effective.settings import Settings

# Methods SpeculativeConfig.__post_init__ keeps as written (0.28 speculative.py:742-790):
# the others may be re-detected from the draft checkpoint (a draft_model whose name holds
# "eagle-" becomes eagle), which only the model can tell.
_SETTLED_SPEC = {"ngram", "ngram_gpu", "suffix", "custom_class"}


def derive_speculative(settings: Settings, release: Release, out: Derived) -> None:
    # k: VllmConfig.num_speculative_tokens (vllm.py:612): the speculative config's count,
    # else a diffusion config's canvas_length. A speculative config without a count is
    # rejected by SpeculativeConfig itself, so any speculative config means k > 0.
    spec = settings.get("speculative_config")
    diffusion = settings.get("diffusion_config")
    spans = settings.spans
    spec_sources = [p for p in spans if p.startswith("speculative_config")] or ["diffusion_config"]
    count: Any = None
    if isinstance(spec, dict) and spec:
        count = spec.get("num_speculative_tokens")
        out.put("spec", True, *spec_sources)
    elif isinstance(diffusion, dict) and isinstance(diffusion.get("canvas_length"), int):
        count = diffusion["canvas_length"]
        out.put("spec", count > 0, "diffusion_config")
    elif settings.is_opaque("speculative_config") or settings.is_opaque("diffusion_config"):
        settings.opaque.add("derived.spec")
    else:
        out.values["spec"] = False
    if isinstance(count, int) and not isinstance(count, bool):
        out.put("spec_tokens", count, *spec_sources)
        out.put("query_len", 1 + count, *spec_sources)
    # How many synthetic acceptance rates the config lists: vLLM wants one per speculative
    # token (SpeculativeConfig._resolve_synthetic_acceptance_rates, 0.34 speculative.py:660).
    rates = spec.get("synthetic_acceptance_rates") if isinstance(spec, dict) else None
    if isinstance(rates, list):
        out.put(
            "spec_synthetic_rates_count",
            len(rates),
            "speculative_config.synthetic_acceptance_rates",
            *spec_sources,
        )

    method = spec_method(settings)
    if method is not None:
        out.put("spec_method", method, *spec_sources)


def spec_method(settings: Settings) -> str | None:
    """The speculative method vLLM settles on, where the flags alone decide it
    (SpeculativeConfig.__post_init__: `model` "ngram" or "[ngram]" without a method is ngram,
    0.28 speculative.py:747, 0.34 :1368); None where the draft checkpoint may decide."""
    if settings.is_opaque("speculative_config"):
        return None
    method = settings.get("speculative_config.method")
    if method is None and settings.get("speculative_config.model") in ("ngram", "[ngram]"):
        return "ngram"
    return method if method in _SETTLED_SPEC else None
