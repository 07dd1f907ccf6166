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
        # KVTransferConfig.has_connector (0.30.0 config/kv_transfer.py:157): the connector, or
        # the connectors a MultiConnector lists in kv_connector_extra_config.connectors
        names = [kv["kv_connector"]]
        extra = kv.get("kv_connector_extra_config")
        children = extra.get("connectors") if isinstance(extra, dict) else None
        if kv["kv_connector"] == "MultiConnector" and isinstance(children, list):
            names += [c.get("kv_connector") for c in children if isinstance(c, dict)]
        out.put("kv_connectors", names, "kv_transfer_config", "kv_transfer_config.kv_connector")
    elif settings.has("kv_offloading_size") and settings.get("kv_offloading_size") is not None:
        out.put("kv_connector", True, "kv_offloading_size")
    else:
        out.values["kv_connector"] = False
