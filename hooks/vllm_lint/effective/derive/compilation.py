"""Compilation: the custom-op directives CompilationConfig reads from `custom_ops`."""

from __future__ import annotations

from vllm_lint.effective.derive.values import Put
from vllm_lint.effective.settings import Settings


def derive_custom_ops(settings: Settings, put: Put) -> None:
    """`custom_ops_conflicts`: the op names both turned on (`+op`) and off (`-op`), sorted, as
    CompilationConfig.__post_init__ computes `conflicting_ops` (0.34.0 config/compilation.py:
    1176-1178, from 0.27); only for a list of strings (another check refuses anything else)."""
    ops = settings.get("compilation_config.custom_ops")
    if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
        return
    enabled = {op[1:] for op in ops if op.startswith("+")}
    disabled = {op[1:] for op in ops if op.startswith("-")}
    sources = ("compilation_config.custom_ops", "compilation_config")
    put("custom_ops_conflicts", sorted(enabled & disabled), *sources)
