"""Extract vLLM's Python API surface per release into schemas/python-api.json.

What the Python reader needs to read `LLM(...)`, `EngineArgs(...)` and `AsyncEngineArgs(...)`
keyword arguments as the flags they set (issue 20), read statically (Python `ast`) from the
unpacked sources of each catalogued release (`/tmp/vllm-src/<release>/`, as
`tools/extract_flags.py` leaves them):

- `engine_args`: the fields of the `EngineArgs` dataclass (vllm/engine/arg_utils.py), the
  keyword arguments `EngineArgs(...)` accepts; `async_engine_args`: those `AsyncEngineArgs`
  adds (request logging);
- `llm`: the parameters of `LLM.__init__` (vllm/entrypoints/llm.py) before `**kwargs`, in
  order (the first ones may be given by position), with `file:line`;
- `llm_sets`: what `LLM.__init__` sets when the caller does not (`disable_log_stats`);
- `llm_filters`: the dict-valued parameters whose unknown keys `LLM` drops
  (`is_init_field`) instead of refusing, as the command line would;
- `llm_compilation_int`: the `CompilationConfig` field an `int` `compilation_config` sets
  (`level`, later `mode`);
- `llm_single_process_dp`: the line that refuses `data_parallel_size > 1` in `LLM`, if any.

    python tools/extract_python_api.py [--src-dir /tmp/vllm-src]
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "schemas" / "python-api.json"


def _class(tree: ast.Module, name: str) -> ast.ClassDef | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    return None


def _fields(cls: ast.ClassDef) -> list[str]:
    return [
        node.target.id
        for node in cls.body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and not node.target.id.startswith("_")
        and not (isinstance(node.annotation, ast.Name) and node.annotation.id == "ClassVar")
        and "ClassVar" not in ast.unparse(node.annotation)
    ]


def _llm(tree: ast.Module, rel: str) -> dict[str, Any]:
    cls = _class(tree, "LLM")
    assert cls is not None, "no class LLM"
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    args = init.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args] if a.arg != "self"]
    keyword = [a.arg for a in args.kwonlyargs]
    body = ast.unparse(init)
    sets = {
        m.group(1): ast.literal_eval(m.group(2))
        for m in re.finditer(
            r"if '(\w+)' not in kwargs:\n\s+kwargs\['\w+'\] = (True|False|\d+)", body
        )
    }
    filters = sorted(
        set(re.findall(r"_make_config\((\w+), ", body))
        | ({"compilation_config"} if "is_init_field(CompilationConfig" in body else set())
        | (
            {"structured_outputs_config"}
            if "is_init_field(StructuredOutputsConfig" in body
            else set()
        )
    )
    compilation = re.search(
        r"isinstance\(compilation_config, int\):\n\s+compilation_config_instance = "
        r"CompilationConfig\((\w+)=",
        body,
    )
    dp_line = None
    for node in ast.walk(init):
        if isinstance(node, ast.Raise) and "is not supported for single" in ast.unparse(node):
            dp_line = node.lineno
    return {
        "llm": {"positional": positional, "keyword": keyword, "source": f"{rel}:{init.lineno}"},
        "llm_sets": sets,
        "llm_filters": filters,
        "llm_compilation_int": compilation.group(1) if compilation else None,
        "llm_single_process_dp": f"{rel}:{dp_line}" if dp_line else None,
    }


def extract(src: Path) -> dict[str, Any]:
    arg_utils = src / "vllm" / "engine" / "arg_utils.py"
    tree = ast.parse(arg_utils.read_text(encoding="utf-8"))
    engine = _class(tree, "EngineArgs")
    async_engine = _class(tree, "AsyncEngineArgs")
    assert engine is not None and async_engine is not None
    llm_py = src / "vllm" / "entrypoints" / "llm.py"
    llm = _llm(ast.parse(llm_py.read_text(encoding="utf-8")), "vllm/entrypoints/llm.py")
    return {
        "engine_args": sorted(_fields(engine)),
        "engine_args_source": f"vllm/engine/arg_utils.py:{engine.lineno}",
        "async_engine_args": sorted(_fields(async_engine)),
        **llm,
    }


def _ranges(order: list[str], names: dict[str, list[str]]) -> dict[str, list[str]]:
    """name -> [first, last] release holding it; a name must be held by consecutive releases."""
    out: dict[str, list[str]] = {}
    for name in sorted({n for held in names.values() for n in held}):
        having = [k for k, r in enumerate(order) if name in names[r]]
        if having != list(range(having[0], having[-1] + 1)):
            raise SystemExit(f"{name}: not held by consecutive releases; extend the format")
        out[name] = [order[having[0]], order[having[-1]]]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    index = json.loads((ROOT / "schemas" / "flags" / "index.json").read_text(encoding="utf-8"))
    order = [entry["release"] for entry in index["releases"]]
    releases = {}
    for release in order:
        src = args.src_dir / release
        if not src.is_dir():
            print(f"{src}: missing (unpack the wheel first, see tools/README.md)", file=sys.stderr)
            return 1
        releases[release] = extract(src)
    data = {
        "description": "vLLM's Python API per catalogued release: the fields of EngineArgs and "
        "AsyncEngineArgs (name -> [first, last] release that has it) and what LLM.__init__ does "
        "with its arguments (tools/extract_python_api.py).",
        "releases": order,
        "engine_args": _ranges(order, {r: v.pop("engine_args") for r, v in releases.items()}),
        "async_engine_args": _ranges(
            order, {r: v.pop("async_engine_args") for r, v in releases.items()}
        ),
        "per_release": releases,
    }
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(releases)} releases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
