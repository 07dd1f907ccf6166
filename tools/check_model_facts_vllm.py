"""Check schemas/models.json against vLLM itself: build vLLM's ModelConfig from each folder of
tools/model_configs/ and compare what it computes with the facts tools/model_facts.py wrote.

A maintainer's check, not part of the build or the tests: it needs the vLLM oracle's environment
(shared/oracle/setup.sh: vLLM 0.33.0 with its transformers, on a CPU-only machine) and imports the
oracle's stand-ins (shared/oracle/oracle.py) so that vLLM starts without a GPU. No network.

    $VLLM_ORACLE_ROOT/venv/bin/python tools/check_model_facts_vllm.py [--oracle ../shared/oracle]

Prints one line per checkpoint (ok, or the facts that differ) and exits 1 if any differ.
Compared: heads, KV heads, hidden size, layers, head size, vocabulary, default max_model_len,
is_moe, use_mla, is_hybrid, routed experts and experts per token, the sliding window, the
quant_method vLLM normalises, and tie_word_embeddings for text-only configs. Not compared: the
layer counts (vLLM's get_num_layers_by_block_type answers only for the hybrid models it sizes
that way) and tie_word_embeddings of multimodal configs (vLLM reads the text config, whose class
default may differ from what the top level of config.json says).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

# The oracle's environment has no torchvision; vLLM's model registry imports it with the
# multimodal model modules (Llama 4, Qwen-VL). A stand-in package on PYTHONPATH lets those
# modules import; no code of it runs for a config.
_STUB = """class _Any:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return _Any()
    def __getattr__(self, name): return _Any()
    def __mro_entries__(self, bases): return (object,)
def __getattr__(name):
    return _Any()
__version__ = "0.0.0"
"""


def _torchvision_stand_in() -> str:
    root = Path(tempfile.mkdtemp(prefix="tv-stand-in-"))
    for rel in ("", "transforms", "transforms/v2", "io"):
        (root / "torchvision" / rel).mkdir(parents=True, exist_ok=True)
        (root / "torchvision" / rel / "__init__.py").write_text(_STUB)
    for rel in ("transforms/v2/functional.py", "transforms/functional.py", "ops.py"):
        (root / "torchvision" / rel).write_text(_STUB)
    return str(root)


def vllm_view(folder: Path) -> dict[str, Any]:
    from vllm.config import ModelConfig

    mc = ModelConfig(model=str(folder), tokenizer=str(folder), skip_tokenizer_init=True)
    arch = mc.model_arch_config
    quant = arch.quantization_config or {}
    view: dict[str, Any] = {
        "attention_heads": arch.total_num_attention_heads,
        "kv_heads": mc.get_total_num_kv_heads(),
        "hidden_size": mc.get_hidden_size(),
        "num_layers": mc.get_total_num_hidden_layers(),
        "head_dim": mc.get_head_size(),
        "vocab_size": mc.get_vocab_size(),
        "max_model_len": mc.max_model_len,
        "moe": mc.is_moe,
        "mla": mc.use_mla,
        "hybrid": mc.is_hybrid,
        "experts": mc.get_num_experts() or None,
        "per_token": mc.get_num_experts_per_tok() if mc.get_num_experts() else None,
        "sliding_window": mc.get_sliding_window(),
        "quant_method": quant.get("quant_method"),
    }
    if mc.hf_config is mc.hf_text_config:
        view["tie_word_embeddings"] = getattr(mc.hf_text_config, "tie_word_embeddings", None)
    return view


def ours(model: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    experts: dict[str, Any] = model.get("experts") or {}
    quant: dict[str, Any] = model.get("quantization") or {}
    flat = {
        **model,
        "experts": experts.get("routed"),
        "per_token": experts.get("per_token"),
        "sliding_window": model.get("sliding_window"),
        "quant_method": quant.get("quant_method"),
        "tie_word_embeddings": model.get("tie_word_embeddings"),
    }
    return {k: flat.get(k) for k in keys}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", type=Path, default=REPO.parent / "shared" / "oracle")
    args = ap.parse_args(argv)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (_torchvision_stand_in(), os.environ.get("PYTHONPATH")) if p
    )
    sys.path.insert(0, str(args.oracle))
    import oracle

    oracle._preload_and_import()
    index = json.loads((REPO / "tools" / "model_configs" / "index.json").read_text())["checkpoints"]
    models = json.loads((REPO / "schemas" / "models.json").read_text())["models"]
    failed = 0
    for entry, model in zip(index, models, strict=True):
        try:
            theirs = vllm_view(REPO / "tools" / "model_configs" / entry["dir"])
        except Exception as e:
            failed += 1
            print(f"{entry['dir']}: vLLM could not build it: {type(e).__name__}: {e}")
            continue
        mine = ours(model, set(theirs))
        diff = {k: (mine[k], theirs[k]) for k in theirs if mine[k] != theirs[k]}
        failed += bool(diff)
        print(f"{entry['dir']}: " + ("ok" if not diff else f"differs (ours, vLLM's): {diff}"))
    print(f"{len(index) - failed} of {len(index)} agree with vLLM")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
