"""KV transfer: whether the launch runs a KV connector."""

from __future__ import annotations

from vllm_lint.effective.derive.values import Derived, Release
from vllm_lint.effective.settings import Settings


def derive_kv_transfer(settings: Settings, release: Release, out: Derived) -> None:
    # KVTransferConfig.is_kv_transfer_instance; --kv-offloading-size builds an offloading
    # connector with kv_role kv_both in every release 0.27–0.34 (_post_init_kv_transfer_config).
    kv = settings.get("kv_transfer_config")
    if isinstance(kv, dict) and kv.get("kv_connector"):
        out.put("kv_connector", True, "kv_transfer_config")
    elif settings.has("kv_offloading_size") and settings.get("kv_offloading_size") is not None:
        out.put("kv_connector", True, "kv_offloading_size")
    else:
        out.values["kv_connector"] = False
