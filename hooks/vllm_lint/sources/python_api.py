"""vLLM started in-process from Python: `LLM(...)`, `LLMEngine.from_engine_args(EngineArgs(...))`,
`AsyncLLMEngine.from_engine_args(AsyncEngineArgs(...))`, Ray Serve LLM's
`LLMConfig(engine_kwargs=...)` and `vllm.entrypoints.openai.api_server.run_server(args)`,
read with `ast` (never imported or run).

Only names imported from vLLM count (`from vllm import LLM`, `import vllm` then `vllm.LLM`,
aliases, LMCache's `lmcache_vllm.vllm`), resolved where each is used (`read/pyscope.py`: a
function's own import, the last import of the name): another library's `LLM` class
(TensorRT-LLM's, SGLang's, LMDeploy's) is not vLLM's, and neither is a name no import binds
(`LLM(...)` in a file that never imports it: a snippet, or a class of its own). Keyword
arguments are the `EngineArgs` fields that the flags of the same name set; each becomes that
flag (`tensor_parallel_size=2` -> `--tensor-parallel-size 2`, `True` the flag itself,
`False` its `--no-` form or nothing, a dict its JSON, a dict with unknown values dotted keys),
so the same catalogs and rules judge them. `LLM(**kwargs)` reads a dict the same function
writes literally (`kwargs = {...}`, `kwargs["k"] = v`, `kwargs.update(...)`). What is not
literal stays unknown. `EngineArgs(...)` alone starts nothing: it counts where it reaches a
`from_engine_args` (directly or through a name), which is the launch. How each release's
Python API differs from `vllm serve` (keywords it has no flag for, `LLM`'s own defaults) is
judged later, for the launch's release (`effective/python_api.py`).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vllm_lint.argv.catalog import Catalog
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.read import placeholders, pysource
from vllm_lint.read.pyscope import Scopes, place
from vllm_lint.read.pysource import dotted
from vllm_lint.read.pyvalues import Unknown, Values
from vllm_lint.sources.doc_blocks import with_document_release
from vllm_lint.sources.document import Document

_ENGINE_ARGS = frozenset({"EngineArgs", "AsyncEngineArgs"})
_FROM_ENGINE_ARGS = frozenset({"from_engine_args", "build_async_engine_client_from_engine_args"})
_RAY_LLM = ("ray.serve.llm", "ray.llm")


def find(doc: Document) -> Iterator[Invocation]:
    tree = doc.python
    if tree is None:
        return
    imports = _imports(tree)
    if not imports:
        return
    reader = _Reader(doc, tree, imports)
    found = [
        inv
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and (inv := reader.launch(node))
    ]
    found = [placeholders.settle(inv, doc.text) for inv in found]
    yield from with_document_release(found, doc.text, [], images=False)


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> what it was imported as, for the vLLM and Ray Serve LLM modules."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _interesting(alias.name):
                    local = alias.asname or alias.name.partition(".")[0]
                    names[local] = alias.name if alias.asname else local
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and not node.level
            and _interesting(node.module)
        ):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _interesting(module: str) -> bool:
    """vLLM itself and modules that re-export its classes (`lmcache_vllm.vllm`,
    `verl.third_party.vllm`), and Ray Serve LLM."""
    parts = module.split(".")
    return "vllm" in parts or parts[0].endswith("_vllm") or module.startswith(_RAY_LLM)


def _is_vllm(qualified: str) -> bool:
    parts = qualified.split(".")
    return "vllm" in parts[:-1] or parts[0] == "vllm" or parts[0].endswith("_vllm")


class _Reader:
    def __init__(self, doc: Document, tree: ast.Module, imports: dict[str, str]) -> None:
        self.doc = doc
        self.imports = imports
        self.src = pysource.Source(doc.path, doc.text, tree)
        self.values = Values(self.src, Scopes(tree))

    def qualified(self, func: ast.AST) -> str | None:
        name = dotted(func)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if head not in self.imports:
            return None
        # the import that binds the name where it is used (a function's own, the last one)
        imported = self.values.scopes.of(func).imported(head, place(func))
        if imported is None or not _interesting(imported):
            return None
        return imported + (f".{rest}" if rest else "")

    def launch(self, call: ast.Call) -> Invocation | None:
        qualified = self.qualified(call.func)
        if qualified is None:
            return None
        last = qualified.rpartition(".")[2]
        if last == "LLM" and _is_vllm(qualified):
            return self._invocation(call, qualified, "LLM(...)", self._engine_argv(call))
        if last in _FROM_ENGINE_ARGS and _is_vllm(qualified):
            return self._from_engine_args(call, qualified)
        if last == "LLMConfig" and qualified.startswith(_RAY_LLM):
            return self._ray(call)
        if last == "run_server" and ".entrypoints." in qualified:
            return self._invocation(call, None, f"{_short(qualified)}(...) (in-process)", [], True)
        return None

    # -- the calls ----------------------------------------------------------------------------

    def _from_engine_args(self, call: ast.Call, qualified: str) -> Invocation:
        arg = call.args[0] if call.args else _keyword(call, "engine_args")
        origin = f"{_short(qualified)}(...)"
        constructor = self._engine_args_call(arg) if arg is not None else None
        if constructor is None:  # built elsewhere (`from_cli_args`, a parameter)
            return self._invocation(call, None, origin, [], True)
        api = self.qualified(constructor.func) or "vllm.EngineArgs"
        short = api.rpartition(".")[2]
        inv = self._invocation(
            call, api, f"{origin} of {short}(...)", self._engine_argv(constructor)
        )
        built, used = self.values.span(constructor.func), inv.anchor
        if used is not None and (built.line, built.col) < (used.line, used.col):
            # the launch is written from where its arguments are to where it is started
            inv = inv._replace(
                anchor=Span(used.path, built.line, built.col, used.end_line, used.end_col)
            )
        return inv

    def _engine_args_call(self, node: ast.AST, depth: int = 0) -> ast.Call | None:
        if isinstance(node, ast.Call):
            qualified = self.qualified(node.func)
            if qualified is not None and qualified.rpartition(".")[2] in _ENGINE_ARGS:
                return node
            return None
        name = dotted(node)
        if name is None or depth > 4:
            return None
        history = self.values.scopes.of(node).history(name, place(node))
        if not history or len(history) != 1:
            return None
        return self._engine_args_call(history[0].value, depth + 1)

    def _ray(self, call: ast.Call) -> Invocation | None:
        kwargs = _keyword(call, "engine_kwargs")
        if kwargs is None:
            return None
        argv: list[Token] = []
        loading_node = _keyword(call, "model_loading_config")
        loading = self.values.literal(loading_node) if loading_node is not None else None
        if isinstance(loading, dict) and loading_node is not None:
            model = loading.get("model_source", loading.get("model_id"))
            if isinstance(model, str):
                argv.append(Token(model, self.values.span(loading_node)))
        argv += self._mapping_argv(kwargs, self.values.scopes.of(call))
        # Ray Serve LLM builds vLLM's AsyncEngineArgs from them
        return self._invocation(
            call, "vllm.AsyncEngineArgs", "Ray Serve LLMConfig(engine_kwargs=...)", argv
        )

    def _invocation(
        self, call: ast.Call, api: str | None, origin: str, argv: list[Token], partial: bool = False
    ) -> Invocation:
        anchor = self.values.span(call.func)
        return Invocation(
            path=self.doc.path,
            argv=tuple(argv),
            env={},
            origin=origin,
            base_dir=str(Path(self.doc.path).parent),
            partial=partial or any(t.opaque for t in argv),
            anchor=anchor,
            api=api,
        )

    # -- arguments --------------------------------------------------------------------------

    def _engine_argv(self, call: ast.Call) -> list[Token]:
        argv: list[Token] = []
        if call.args:  # the model, then (old releases) more parameters by position
            first = call.args[0]
            if isinstance(first, ast.Starred):
                return [self.values.unknown_word(first, "*").token]
            argv.append(self.values.word(first).token)
            argv += [self.values.unknown_word(a, "*").token for a in call.args[1:]]
        scope = self.values.scopes.of(call)
        for kw in call.keywords:
            if kw.arg is None:
                argv += self._mapping_argv(kw.value, scope)
            elif kw.arg == "model":  # the positional model, as `vllm serve MODEL`
                argv.insert(0, self.values.word(kw.value).token)
            else:
                argv += self.kwarg(kw.arg, _name_span(self.values, kw), kw.value)
        return argv

    def _mapping_argv(self, node: ast.AST, scope: Any) -> list[Token]:
        """`**kwargs` or `engine_kwargs=`: a dict the code writes literally, key by key."""
        if isinstance(node, ast.Dict):
            return self._dict_items(node)
        if isinstance(node, ast.Call) and dotted(node.func) == "dict" and not node.args:
            return [
                t
                for kw in node.keywords
                if kw.arg
                for t in self.kwarg(kw.arg, _name_span(self.values, kw), kw.value)
            ]
        name = dotted(node)
        history = scope.history(name, place(node)) if name is not None else None
        if not history:
            return [self.values.unknown_word(node, "**").token]
        if history[0].kind == "unknown":  # a dict one arm of an `if` or the other assigns
            argv = [Token(f"**{name} (if/else)", self.values.span(history[0].value), True)]
        else:
            argv = self._mapping_argv(history[0].value, scope)
        for event in history[1:]:
            if event.kind == "setitem" and event.key is not None:
                key = self.values.literal(event.key)
                if isinstance(key, str):
                    argv += self.kwarg(key, self.values.span(event.key), event.value)
                else:
                    argv.append(self.values.unknown_word(event.value, "**").token)
            elif event.kind == "unknown":  # what one arm of an `if` or the other sets
                argv.append(Token(f"**{name} (if/else)", self.values.span(event.value), True))
            elif event.kind == "update":
                argv += (
                    self._mapping_argv(event.value, scope)
                    if not event.keywords
                    else [
                        t
                        for kw in event.keywords
                        if kw.arg
                        for t in self.kwarg(kw.arg, _name_span(self.values, kw), kw.value)
                    ]
                )
        return argv

    def _dict_items(self, node: ast.Dict) -> list[Token]:
        argv: list[Token] = []
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                argv.append(self.values.unknown_word(value, "**").token)
                continue
            name = self.values.literal(key)
            if not isinstance(name, str):
                argv.append(self.values.unknown_word(value, "**").token)
                continue
            if name == "model":
                argv.insert(0, self.values.word(value).token)
                continue
            argv += self.kwarg(name, self.values.span(key), value)
        return argv

    def kwarg(self, name: str, key_span: Span, node: ast.AST) -> list[Token]:
        value = self.values.literal(node)
        return kwarg_tokens(name, key_span, value, self.values.span(node), self.doc.catalog)


def kwarg_tokens(
    name: str, key_span: Span, value: Any, value_span: Span, cat: Catalog
) -> list[Token]:
    """The argv words a keyword argument stands for: the flag that sets the same field."""
    flag = "--" + name.replace("_", "-")
    if isinstance(value, Unknown):
        return [Token(flag, key_span), Token(value.text, value_span, opaque=True)]
    if value is None or value is False:
        negated = f"--no-{name.replace('_', '-')}"
        if value is False and cat.resolve(negated) is not None:
            return [Token(negated, key_span)]
        if cat.resolve(flag) is not None:
            return []  # the default
        # a keyword no flag sets: an unknown one is a TypeError whatever its value
        # (`effective/python_api.prepare` judges the name; a known one is left out there)
        return [Token(flag, key_span), Token(str(value), value_span)]
    if value is True:
        return [Token(flag, key_span)]
    if isinstance(value, dict):
        resolved = cat.resolve(flag)
        if resolved is not None and resolved[0].type == "kvs":
            # a dict reaches EngineArgs as it is; the command line's `image=2,video=1` form
            # (0.5.5 - 0.8.4) is what argparse would have made of it
            text = ",".join(f"{k}={v}" for k, v in value.items())
            plain = all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
            return [Token(flag, key_span), Token(text, value_span, opaque=not plain)]
        if not _has_unknown(value):
            return [Token(flag, key_span), Token(json.dumps(value, default=str), value_span)]
        if not cat.features.get("dotted_json_keys", True):
            return [Token(flag, key_span), Token("{…}", value_span, opaque=True)]
        return _dotted(flag, key_span, value, value_span)
    if isinstance(value, list):
        resolved = cat.resolve(flag)
        spec = resolved[0] if resolved is not None else None
        if spec is not None and (spec.type == "json" or spec.json_keys) and not _has_unknown(value):
            return [Token(flag, key_span), Token(json.dumps(value, default=str), value_span)]
        return [Token(flag, key_span)] + [
            Token(v.text, value_span, opaque=True)
            if isinstance(v, Unknown)
            else Token(str(v), value_span)
            for v in value
        ]
    return [Token(flag, key_span), Token(str(value), value_span)]


def _dotted(flag: str, key_span: Span, value: dict[str, Any], value_span: Span) -> list[Token]:
    """`--x.key value` for each leaf: the literal ones are judged, the others opaque."""
    out: list[Token] = []
    for key, item in value.items():
        name = f"{flag}.{key}"
        if isinstance(item, dict) and item and _has_unknown(item):
            out += _dotted(name, key_span, item, value_span)
        elif _has_unknown(item):
            shown = item.text if isinstance(item, Unknown) else "?"
            out += [Token(name, key_span), Token(shown, value_span, opaque=True)]
        else:
            out += [Token(name, key_span), Token(json.dumps(item, default=str), value_span)]
    return out


def _has_unknown(value: Any) -> bool:
    if isinstance(value, Unknown):
        return True
    if isinstance(value, dict):
        return any(_has_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_unknown(v) for v in value)
    return False


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _name_span(values: Values, kw: ast.keyword) -> Span:
    """The span of the keyword's name (`tensor_parallel_size` of `tensor_parallel_size=2`)."""
    span = values.span(kw)
    if span.line == span.end_line and kw.arg:
        return Span(span.path, span.line, span.col, span.line, span.col + len(kw.arg))
    return span


def _short(qualified: str) -> str:
    parts = qualified.split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 else qualified
