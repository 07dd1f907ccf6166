"""Which commands of each vLLM release build the engine's argument parser, and with which flags.

`vllm serve` is not the only command that takes the engine's flags: `vllm bench latency`,
`vllm bench throughput`, `vllm run-batch`, `python -m vllm.entrypoints.openai.run_batch` …
hand their parser to `EngineArgs.add_cli_args` / `AsyncEngineArgs.add_cli_args` or to the
server's `make_arg_parser`, and refuse a removed flag the same way ("unrecognized arguments").
This tool reads each release's unpacked sources (`tools/extract_flags.py ensure_source`; `ast`
only, vLLM is never imported) and runs every command's parser builder symbolically with
`extract_flags.Interpreter`:

* the `vllm` CLI's subcommands: every class with a `name` and a `subparser_init` in the modules
  of `vllm/entrypoints/cli/` (0.7.3+) or the `add_parser(...)` calls of `vllm/scripts.py`
  (0.5.2 - 0.7.2, read by hand: none there builds the engine but `serve`), and `vllm bench X`:
  the subclasses of `BenchmarkSubcommandBase` (`vllm/entrypoints/cli/benchmark/*.py`), whose
  `add_cli_args` fills the bench subparser;
* `python -m` modules: every module of the wheel with an `if __name__ == "__main__":` block
  that builds a parser (the server's own modules are `schemas/flags/`'s `entrypoints`).

A command builds the engine parser when every flag of `EngineArgs.add_cli_args` is among its
flags. It is stored against the release's `serve` catalog (`schemas/flags/`): `without` (the
serve flags it lacks: the server's frontend options), `flags` (its own options, records as
in the flag catalogs, or ones that differ from serve's), `positional`, and `source`
(file:line of its name or `__main__` block). A release's file is written only when it differs
from the next newer release's (`index.json` maps every release to its file), the same
newest-first sharing as the flag catalogs' deltas.

    python -m tools.extract_commands [--releases …] [--src-dir /tmp/vllm-src] [--no-download]
    python -m tools.extract_commands --check
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

from tools.extract_flags import (
    RELEASES,
    ArgRecord,
    ClassRef,
    Interpreter,
    Module,
    ParserObj,
    SourceTree,
    SubparsersObj,
    add_config_choices,
    class_mro,
    detect_profile,
    dump,
    ensure_source,
    main_block,
    read_parser_features,
    records_of,
)

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ROOT / "schemas" / "flags"
OUT = ROOT / "schemas" / "commands"
FORMAT_VERSION = 1
# the server's own entry points: `vllm serve` and the modules of `schemas/flags/index.json`
SERVE = frozenset(
    {"vllm serve", "vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server"}
)
# `vllm collect-env` of 0.8.x hands its subparser to the server's `make_arg_parser` (a copy of
# `serve`'s subparser_init, vllm/entrypoints/cli/collect_env.py:30 in 0.8.5) but only prints the
# environment: nobody writes engine flags to it, and it is not a launch
NOT_LAUNCHES = frozenset({"vllm collect-env"})


class _Interpreter(Interpreter):
    """extract_flags' interpreter, with the imports a function makes in its body bound (the
    CLI's `subparser_init` imports `make_arg_parser` there, so as not to import it at start)."""

    def exec_stmt(self, st: ast.stmt, env: dict[str, Any], mod: Module, top: bool) -> None:
        if isinstance(st, ast.ImportFrom) and st.module:
            source = mod._abs(st.module, st.level)
            for alias in st.names:
                found = self.tree.resolve(source, alias.name)
                if found is None:
                    found = self.tree.module(f"{source}.{alias.name}")
                if found is not None:
                    env[alias.asname or alias.name] = found
            return
        super().exec_stmt(st, env, mod, top)


def _fresh(tree: SourceTree) -> Interpreter:
    return _Interpreter(tree, detect_profile(tree))


def engine_flags(tree: SourceTree, enable_disable: bool) -> set[str]:
    """The flags `EngineArgs.add_cli_args` adds (the smallest engine parser)."""
    mod = tree.module("vllm.engine.arg_utils")
    if mod is None:
        return set()
    for node in mod.ast.body:
        if isinstance(node, ast.ClassDef) and node.name == "EngineArgs":
            interp = _fresh(tree)
            cls = ClassRef(mod, node)
            meth = interp.find_method(cls, "add_cli_args")
            if meth is None:
                return set()
            sink: list[ArgRecord] = []
            meth.bound = cls
            interp.run_function(meth, [ParserObj(sink)], {})
            return set(records_of(sink, enable_disable)[0])
    return set()


def _rel(tree: SourceTree, mod: Module) -> str:
    return mod.path.relative_to(tree.root).as_posix()


def _name_node(node: ast.ClassDef) -> ast.Constant | None:
    """The command's name: `name = "latency"` in the class body (0.10+), or `self.name =
    "latency"` in its `__init__` (0.8 - 0.9)."""
    for st in node.body:
        if isinstance(st, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "name" for t in st.targets
        ):
            return st.value if _is_str(st.value) else None  # type: ignore[return-value]
        if isinstance(st, ast.FunctionDef) and st.name == "__init__":
            for sub in ast.walk(st):
                if (
                    isinstance(sub, ast.Assign)
                    and any(isinstance(t, ast.Attribute) and t.attr == "name" for t in sub.targets)
                    and _is_str(sub.value)
                ):
                    return sub.value  # type: ignore[return-value]
    return None


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _class_name(node: ast.ClassDef) -> str | None:
    found = _name_node(node)
    return str(found.value) if found is not None else None


def _cli_modules(tree: SourceTree) -> list[Module]:
    folder = tree.root / "vllm" / "entrypoints" / "cli"
    found = []
    for path in sorted(folder.rglob("*.py")) if folder.is_dir() else []:
        name = path.relative_to(tree.root).with_suffix("").as_posix().replace("/", ".")
        mod = tree.module(name)
        if mod is not None:
            found.append(mod)
    return found


def _families(classes: list[ClassRef]) -> dict[str, str]:
    """Base class or package -> the command that adds a subparser for each of its members:
    `for cmd_cls in BenchmarkSubcommandBase.__subclasses__()` in `vllm bench` (0.10+), or the
    `cmd_init()` of every module of its package (`vllm/entrypoints/cli/benchmark/`, 0.8 - 0.9)."""
    found: dict[str, str] = {}
    for cls in classes:
        name = _class_name(cls.node)
        if name and cls.mod.name.endswith(".main") and cls.mod.name.count(".") > 3:
            found[cls.mod.name.rpartition(".")[0]] = name  # vllm.entrypoints.cli.benchmark
        for st in cls.node.body:
            if isinstance(st, ast.FunctionDef) and st.name == "subparser_init" and name:
                for node in ast.walk(st):
                    if (
                        isinstance(node, ast.Attribute)
                        and node.attr == "__subclasses__"
                        and isinstance(node.value, ast.Name)
                    ):
                        found[node.value.id] = name
    return found


def _family(cls: ClassRef, families: dict[str, str]) -> str | None:
    for base in class_mro(cls)[1:]:
        if base.name in families:
            return families[base.name]
    package = cls.mod.name.rpartition(".")[0]
    if package in families and not cls.mod.name.endswith(".main"):
        return families[package]
    return None


def cli_commands(tree: SourceTree) -> dict[str, tuple[list[ArgRecord], str]]:
    """`vllm <name>` and `vllm <name> <sub>` (`vllm bench latency`, `vllm launch render`) →
    (their add_argument records, file:line of the class's `name`)."""
    classes = [
        ClassRef(mod, node)
        for mod in _cli_modules(tree)
        for node in mod.ast.body
        if isinstance(node, ast.ClassDef) and _class_name(node) is not None
    ]
    families = _families(classes)
    found: dict[str, tuple[list[ArgRecord], str]] = {}
    for cls in classes:
        name = _class_name(cls.node)
        family = _family(cls, families)
        interp = _fresh(tree)
        sink: list[ArgRecord] = []
        arg: ParserObj | SubparsersObj
        if family is not None:  # a sub-subcommand: its `add_cli_args` fills its own parser
            meth = interp.find_method(cls, "add_cli_args")
            command, arg = f"vllm {family} {name}", ParserObj(sink)
        else:
            meth = interp.find_method(cls, "subparser_init")
            command, arg = f"vllm {name}", SubparsersObj(sink)
        if meth is None or cls.name in families:
            continue
        meth.bound = cls  # `self.add_cli_args(parser)` resolves on the class
        interp.run_function(meth, [arg], {})
        line = getattr(_name_node(cls.node), "lineno", cls.node.lineno)
        found[command] = (sink, f"{_rel(tree, cls.mod)}:{line}")
    return found


_PARSER_WORDS = ("add_cli_args", "make_arg_parser", "ArgumentParser", "parse_args")


def module_commands(tree: SourceTree) -> dict[str, tuple[list[ArgRecord], str]]:
    """`python -m <module>` → (the records its `__main__` block adds, file:line of the block)."""
    found: dict[str, tuple[list[ArgRecord], str]] = {}
    for path in sorted((tree.root / "vllm").rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "__main__" not in text or not any(w in text for w in _PARSER_WORDS):
            continue
        name = path.relative_to(tree.root).with_suffix("").as_posix().replace("/", ".")
        if name.endswith(".__init__") or name in SERVE:
            continue
        mod = tree.module(name)
        block = main_block(mod) if mod is not None else None
        if mod is None or block is None:
            continue
        interp = _fresh(tree)
        sink: list[ArgRecord] = []
        interp.parser_sink = sink
        interp.exec_body(block.body, {}, mod)
        found[name] = (sink, f"{_rel(tree, mod)}:{block.lineno}")
    return found


def serve_records(release: str) -> tuple[dict[str, Any], list[str]]:
    """The release's `vllm serve` flags as `schemas/flags/` stores them."""
    sys.path.insert(0, str(ROOT / "hooks"))
    from vllm_lint.argv.catalog import _records as catalog_records

    flags, features = catalog_records(release)
    return dict(flags), list(features.get("positional", []))


def _same(serve: dict[str, Any] | None, own: dict[str, Any]) -> bool:
    """The same option as serve's, whichever class holds its value (`BatchFrontendArgs.host`
    of run-batch is `FrontendArgs.host` of serve)."""
    if serve is None:
        return False
    return {k: v for k, v in serve.items() if k != "config_field"} == {
        k: v for k, v in own.items() if k != "config_field"
    }


def extract_release(root: Path, release: str) -> dict[str, Any]:
    tree = SourceTree(root)
    enable_disable = bool(read_parser_features(tree).get("enable_disable_pairing"))
    engine = engine_flags(tree, enable_disable)
    serve, _ = serve_records(release)
    commands: dict[str, Any] = {}
    every = {**cli_commands(tree), **module_commands(tree)}
    for command, (sink, source) in sorted(every.items()):
        if command in SERVE or command in NOT_LAUNCHES:
            continue
        flags, positional = records_of(sink, enable_disable)
        if not engine or not engine <= set(flags):
            continue  # a command that does not take the engine's flags (a client, a tool)
        add_config_choices(tree, flags)
        own = {n: r for n, r in flags.items() if not _same(serve.get(n), r)}
        entry: dict[str, Any] = {"source": source}
        without = sorted(set(serve) - set(flags))
        if without:
            entry["without"] = without
        if own:
            entry["flags"] = own
        if positional:
            entry["positional"] = positional
        commands[command] = entry
    return commands


def write(results: dict[str, dict[str, Any]], out: Path) -> None:
    """One file per release that differs from the next newer one; index.json maps them all."""
    out.mkdir(parents=True, exist_ok=True)
    order = sorted(results, key=_key)
    index: dict[str, Any] = {"format": FORMAT_VERSION, "releases": {}}
    wanted: set[str] = set()
    newer: dict[str, Any] | None = None
    newer_file = ""
    for release in reversed(order):
        doc = results[release]
        if doc != newer:
            newer_file = f"{release}.json"
            wanted.add(newer_file)
            (out / newer_file).write_text(dump({"commands": doc}), encoding="utf-8")
            newer = doc
        index["releases"][release] = {"file": newer_file, "commands": sorted(doc)}
    index["releases"] = dict(sorted(index["releases"].items(), key=lambda kv: _key(kv[0])))
    (out / "index.json").write_text(dump(index), encoding="utf-8")
    for stale in out.glob("*.json"):
        if stale.name != "index.json" and stale.name not in wanted:
            stale.unlink()


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in release.replace("post", "").split("."))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--releases", nargs="*")
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--no-download", action="store_true")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if a shipped file differs")
    args = ap.parse_args(argv)
    releases = args.releases or list(RELEASES)
    results = {}
    for release in releases:
        root = ensure_source(release, args.cache_dir, args.src_dir, not args.no_download)
        results[release] = extract_release(root, release)
        print(release, ", ".join(results[release]) or "-", file=sys.stderr)
    if args.check:
        shipped = json.loads((args.out / "index.json").read_text(encoding="utf-8"))
        got = {r: sorted(results[r]) for r in results}
        want = {r: shipped["releases"].get(r, {}).get("commands") for r in results}
        if got != want:
            print("schemas/commands/ differs from the sources", file=sys.stderr)
            return 1
        return 0
    write(results, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
