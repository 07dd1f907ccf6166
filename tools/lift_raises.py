#!/usr/bin/env python3
"""vLLM's refusals lifted from its source: the guard of a raise site as rule data.

    python -m tools.lift_raises                    # every release of tools/coverage/
    python -m tools.lift_raises --check            # exit 1 if schemas/lifted.json is stale

For each site ``tools/mine_raises.py`` finds and no rule or mined check covers, the guarding
``if`` tests (innermost last; ``not (...)`` for an ``else`` branch) and, for an ``assert``,
its negated test are read with ``ast``. A site is *lifted* when every part of that condition
is one of:

* a config field: ``self.x`` of a config class whose field a ``--flag`` or a key of a JSON
  flag (``--speculative-config``) sets (schemas/validation/<release>.json, ``flags`` /
  ``json_flags``), ``self.<sub>_config.x`` in ``VllmConfig``, ``self.x`` of ``EngineArgs``
  (a flag of the catalog), ``args.x`` in a serve-args validator, or the value parameter of a
  ``field_validator`` of one field (of a ``mode="before"`` one: the value as written, even
  where that validator's return rewrites the field; there ``isinstance`` of a class a vLLM
  module defines is false); never a field vLLM rewrites in code
  (``rewritten``), one with ``init=False``, or one assigned in the function before the site;
* a constant, a module-level constant, a literal list/tuple/set, a local name assigned once
  before the site from a liftable expression;
* ``len()``, ``+ - * // % **``, comparisons (chained too), ``in``/``not in``, ``is``/``is
  not`` ``None``, ``and``/``or``/``not``, ``x[<int>]``;
* known pure helpers: ``isinstance`` with builtin types, ``set``/``sorted``/``list``,
  ``any``/``all`` over a generator, ``str.lower/upper/strip/startswith/endswith``,
  ``dict.items/keys/values``;
* registries of the release: module-level dict keys (for ``in``), ``Literal[...]`` aliases
  read by ``get_args``, literal frozensets, and such constants imported from ``vllm`` modules;
* an ``init=False`` field with a literal default no code a config build runs assigns (its
  default), ``self.<sub>_config is not None`` for a sub config ``create_engine_config``
  always builds or ``VllmConfig`` types as one class with a ``default_factory``; for a sub
  config a JSON flag sets and no code assigns, ``is not None`` is the flag written;
* a field of a sub config reached through a config-typed field (``self.offload_config.uva.
  cpu_offload_gb`` -> the flag of ``UVAOffloadConfig.cpu_offload_gb``);
* ``envs.X``: the launch's ``env.X`` as the release parses it (schemas/envs: a string or a
  case-sensitive choice as written, a case-insensitive one lowercased; other kinds are not
  lifted), known only where the launch writes it.

The site must be reached when the config is built: in ``__post_init__``/``__init__``, a
pydantic validator, ``EngineArgs.create_engine_config``, a serve-args ``validate*`` function,
or a method those call in an expression their statement always evaluates, directly or through
other methods (the guards of each call and the caller's early returns conjoined, the ways in
or-ed). A module-level function, or a method of a sub config ``VllmConfig`` always builds, is
followed to the calls such a method makes into it (``_check(self.x)``,
``self.parallel_config.verify(self.model_config)``; up to two calls out of a class): its
parameters stand for the call's arguments read in the caller, a method's ``self`` for the
receiver, and the call's guards and the caller's way in are conjoined. A nested ``def``
before the site is no early exit. Early exits (``if t: return``, ``if t: continue`` in the
site's loop) before the site at any depth become ``not t``; a ``for`` loop around the site
becomes ``any`` over its iterable (a tuple target ``for k, v in d.items()`` unpacks each
element). Not lifted: after another ``return``, in a ``while``
loop, inside a ``try`` that catches; a condition constant folding decides ("never holds").

Output: ``schemas/lifted.json``, one entry per distinct (file, function, message, condition)
with the releases it holds for as ranges and the line per release. The evaluator is
``hooks/vllm_lint/rules/lifted.py``; the oracle verdicts that keep an entry shipped are in
``tools/conformance/lifted.py``. Expression language (JSON lists, first item the operator):
``["f", path]`` a field, ``["c", value]`` a constant, ``["and"|"or", a, b, ...]``,
``["not", a]``, ``["len", a]``, ``[op, a, b]`` for ``< <= > >= == != in notin is isnot + - *
// % **``, ``["truth", a]`` Python truthiness, ``["v", name]`` the element a quantifier is
at, ``["any"|"all", name, iterable, body]`` (``name`` a list: each element unpacked),
``["isinstance", a, [types]]``, ``["set"|"sorted"|"list", a]``, ``["items"|"keys"|"values",
a]``, ``["m", method, receiver, args...]``, ``["idx", a, i]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from tools import mine_raises as mr
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools import mine_raises as mr
from vllm_lint import release_data

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "schemas" / "lifted.json"
FLAGS = REPO / "schemas" / "flags"
ENVS = REPO / "schemas" / "envs"
FORMAT_VERSION = 1

COMPARE = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "notin",
    ast.Is: "is",
    ast.IsNot: "isnot",
}
ARITH = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
}
ROOTS = {"__post_init__", "__init__", "create_engine_config"}
VALIDATORS = {"field_validator", "model_validator"}


class Unliftable(Exception):
    """Why a condition is not lifted (a short reason)."""


@dataclass
class Fields:
    """How a release's config fields map to the document paths of the effective settings."""

    flags: dict[str, str]  # document keys of the release's flags -> their type
    choices: dict[str, list[Any]]  # document keys of flags with choices -> them
    by_field: dict[str, str]  # "Class.field" -> document key of the one flag that sets it
    json_class: dict[str, str]  # class of a JSON flag -> its document key
    classes: dict[str, Any]  # validation "classes"
    stored: set[str] = field(default_factory=set)  # attributes vLLM's code assigns anywhere
    on_path: set[str] = field(default_factory=set)  # assigned where a config build runs
    built: set[str] = field(default_factory=set)  # sub configs VllmConfig always gets
    envs: dict[str, Any] = field(default_factory=dict)  # schemas/envs: name -> record

    @classmethod
    def of(cls, release: str, validation: dict[str, Any] | None) -> Fields:
        catalog = release_data.load_in(FLAGS, release) or {"flags": {}}
        flags = {
            f[2:].replace("-", "_"): str(spec.get("type", ""))
            for f, spec in catalog["flags"].items()
            if f.startswith("--")
        }
        choices = {
            f[2:].replace("-", "_"): spec["choices"]
            for f, spec in catalog["flags"].items()
            if f.startswith("--") and isinstance(spec.get("choices"), list)
        }
        by_field: dict[str, str] = {}
        seen: dict[str, int] = {}
        json_class: dict[str, str] = {}
        classes: dict[str, Any] = {}
        if validation is not None:
            for flag, target in validation.get("flags", {}).items():
                seen[target] = seen.get(target, 0) + 1
                by_field[target] = flag[2:].replace("-", "_")
            for flag, rec in validation.get("json_flags", {}).items():
                json_class[rec["class"]] = flag[2:].replace("-", "_")
            classes = validation.get("classes", {})
        # a field two flags set (an alias and its new name) has no one path
        by_field = {k: v for k, v in by_field.items() if seen[k] == 1 and v in flags}
        envs = (release_data.load_in(ENVS, release) or {}).get("variables", {})
        return cls(flags, choices, by_field, json_class, classes, envs=envs)

    def record(self, owner: str, name: str) -> dict[str, Any] | None:
        return self.classes.get(owner, {}).get("fields", {}).get(name)

    def path(
        self, owner: str, name: str, raw_in: tuple[int, int] | None = None
    ) -> tuple[str, Any, str] | None:
        """(document path, class default or NO_DEFAULT, type) of `owner.name`, or None.
        `raw_in`: the lines of a `mode="before"` validator of the field, which reads the
        written value even when the field is `rewritten` there (by its own return)."""
        if owner == "EngineArgs":
            return (name, NO_DEFAULT, self.flags[name]) if name in self.flags else None
        rec = self.record(owner, name)
        rewritten = rec.get("rewritten") if rec is not None else None
        if rewritten is not None and raw_in is not None:
            line = str(rewritten).rpartition(":")[2]
            if line.isdigit() and raw_in[0] <= int(line) <= raw_in[1]:
                rewritten = None  # rewritten by this validator: its parameter is the raw value
        if rec is None or rewritten is not None or rec.get("init") is False or "skip" in rec:
            return None
        top = self.by_field.get(f"{owner}.{name}")
        json_key = self.json_class.get(owner)
        kind = str(rec.get("type", ""))
        if isinstance(rec.get("values"), list):
            kind = json.dumps(rec["values"])  # a Literal: its values
        if top is not None and json_key is None:
            if top in self.choices:
                kind = json.dumps(self.choices[top])
            return top, NO_DEFAULT, kind
        if json_key is not None and top is None:
            return f"{json_key}.{name}", rec.get("default", NO_DEFAULT), kind
        return None  # no flag sets it, or two ways do (which wins is vLLM's code)

    def sub_class(self, attribute: str) -> str | None:
        """VllmConfig's `scheduler_config` -> `SchedulerConfig` (`kv_transfer_config` ->
        `KVTransferConfig`): the class whose name is the attribute without underscores."""
        want = attribute.replace("_", "").lower()
        found = [c for c in self.classes if c.lower() == want]
        return found[0] if len(found) == 1 else None


NO_DEFAULT = "<no default>"


@dataclass
class Context:
    """Where a site is: its class, function, and what names stand for there."""

    owner: str
    function: ast.FunctionDef | ast.AsyncFunctionDef
    site_line: int
    constants: dict[str, Any]
    fields: Fields
    value_param: tuple[str, str] | None = None  # (parameter, field) of a one-field validator
    args_param: str | None = None  # `args` of a serve-args validator
    locals: dict[str, ast.expr] = field(default_factory=dict)
    own_stores: set[str] = field(default_factory=set)  # `self.x = ` anywhere in the class
    paths: set[str] = field(default_factory=set)
    types: dict[str, str] = field(default_factory=dict)
    depth: int = 0
    bound: set[str] = field(default_factory=set)  # loop / generator variables in scope
    # parameters of a function reached through a call: the caller's argument, and the
    # caller's context to read it in (`self` of a method: the receiver)
    params: dict[str, tuple[ast.expr, Context]] = field(default_factory=dict)


def _literal(node: ast.expr, constants: dict[str, Any]) -> Any:
    """A literal value (constants, literal containers, module constants) or raise."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (int, float, str, bool)) or node.value is None:
            return node.value
        raise Unliftable("constant")
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_literal(e, constants) for e in node.elts]
    if isinstance(node, ast.Dict):
        raise Unliftable("dict literal")
    if isinstance(node, ast.Name) and node.id in constants:
        value = constants[node.id]
        if isinstance(value, DATA):
            raise Unliftable("not a literal")
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand, constants)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value
    raise Unliftable("not a literal")


def module_constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level names bound once to a literal (`_VALID = ("a", "b")`), to a literal wrapped
    in `frozenset`/`set`/`tuple`/`list`, to the keys of a dict literal (`Keys`: only a
    membership test reads them) or to a `Literal[...]` alias (`LiteralArgs`: what
    `get_args()` gives)."""
    counts: dict[str, int] = {}
    values: dict[str, Any] = {}
    for st in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(st, ast.Assign):
            targets, value = st.targets, st.value
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            targets, value = [st.target], st.value
        for t in targets:
            if isinstance(t, ast.Name):
                counts[t.id] = counts.get(t.id, 0) + 1
                try:
                    values[t.id] = _registry(value, values) if value is not None else None
                except Unliftable:
                    values.pop(t.id, None)
    out = {k: v for k, v in values.items() if counts.get(k) == 1}
    for st in tree.body:
        if isinstance(st, ast.ClassDef) and st.name not in counts and _plain_class(st):
            out[st.name] = VllmClass(st.name)
    return out


class Keys(list):  # type: ignore[type-arg]
    """The keys of a module-level dict literal: data for `in` / `not in` only."""


class LiteralArgs(tuple):  # type: ignore[type-arg]
    """The values of a module-level `Literal[...]` alias: data for `get_args()` only."""


class VllmClass(str):
    """A class a vLLM module defines (no Protocol, ABC or metaclass): a value as the launch
    wrote it (parsed JSON, a command-line word) is never an instance of it."""


DATA = (Keys, LiteralArgs, VllmClass)  # module-level names that are no literal value


def _plain_class(node: ast.ClassDef) -> bool:
    bases = {ast.unparse(b).split(".")[-1].split("[")[0] for b in node.bases}
    return not (
        bases & {"Protocol", "ABC", "Mapping", "Sequence", "MutableMapping", "Set"}
        or node.keywords
        or any("runtime_checkable" in ast.unparse(d) for d in node.decorator_list)
    )


def _registry(node: ast.expr, known: dict[str, Any]) -> Any:
    """A module-level value as data: a literal, a container of literals, dict keys, a
    `Literal[...]` alias."""
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Unliftable("dict literal")
        return Keys(_literal(k, known) for k in node.keys if k is not None)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("frozenset", "set", "tuple", "list")
        and len(node.args) == 1
        and not node.keywords
    ):
        inner = _registry(node.args[0], known)
        if isinstance(inner, (list, tuple)) and not isinstance(inner, LiteralArgs):
            return list(inner)
        raise Unliftable("not a literal")
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).split(".")[-1] == "Literal":
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        values: list[Any] = []
        for e in elts:  # a nested Literal alias is flattened, as typing does
            inner = known.get(e.id) if isinstance(e, ast.Name) else None
            for v in inner if isinstance(inner, LiteralArgs) else [_literal(e, known)]:
                if v not in values:
                    values.append(v)
        return LiteralArgs(values)
    value = _literal(node, known)
    if isinstance(value, DATA):
        raise Unliftable("not a literal")
    return value


def imported_constants(tree: ast.Module, root: Path, cache: dict[str, dict[str, Any]]) -> dict:
    """Module-level data of the vLLM modules a file imports names from
    (`from vllm.config.kernel import MoEBackend`): the registries of that release."""
    out: dict[str, Any] = {}
    for st in tree.body:
        if not isinstance(st, ast.ImportFrom) or not (st.module or "").startswith("vllm"):
            continue
        module = st.module or ""
        if module not in cache:
            base = root / Path(*module.split("."))
            path = base.with_suffix(".py")
            if not path.is_file():
                path = base / "__init__.py"
            try:
                cache[module] = module_constants(ast.parse(path.read_text(encoding="utf-8")))
            except (OSError, SyntaxError):
                cache[module] = {}
        for alias in st.names:
            if alias.name in cache[module]:
                out[alias.asname or alias.name] = cache[module][alias.name]
    return out


def stored_attributes(root: Path, on_path: set[str] | None = None) -> set[str]:
    """Every attribute name assigned (`x.name = ...`, `setattr(x, "name", ...)`) in the files
    the sites come from: a field vLLM's code rewrites is not lifted. `on_path` is filled with
    the attributes assigned where a config build may run: module-level functions and the
    methods `reach_paths` finds (a method no root calls, such as one deriving a copy, is not)."""
    out: set[str] = set()
    for rel, _ in mr.files_in_scope(root):
        try:
            tree = ast.parse((root / rel).read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        if on_path is not None:
            on_path |= _stores_on_path(tree)
        out |= _attributes_stored(tree)
    return out


def always_built(root: Path) -> set[str]:
    """The keywords of the `VllmConfig(...)` call of `EngineArgs.create_engine_config` that are
    never None: a name the function binds once, by a statement of its own body, to a
    `...Config(...)` construction or to a `self.create_*()` whose return annotation is one
    class (not `X | None`)."""
    path = root / "vllm" / "engine" / "arg_utils.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return set()
    cls = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "EngineArgs"), None
    )
    if cls is None:
        return set()
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    fn = methods.get("create_engine_config")
    if fn is None:
        return set()
    counts: dict[str, int] = {}
    for node in _own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    sure: set[str] = set()
    for st in fn.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
            continue
        target, value = st.targets[0], st.value
        if not isinstance(target, ast.Name) or counts.get(target.id) != 1:
            continue
        if not isinstance(value, ast.Call):
            continue
        f = value.func
        if (isinstance(f, ast.Name) and f.id.endswith("Config")) or (
            isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Name)
            and f.value.id == "self"
            and f.attr in methods
            and isinstance(methods[f.attr].returns, ast.Name)
        ):
            sure.add(target.id)
    out: set[str] = set()
    for node in _own_nodes(fn):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "VllmConfig":
            for kw in node.keywords:
                if kw.arg and isinstance(kw.value, ast.Name) and kw.value.id in sure:
                    out.add(kw.arg)
    return out | never_none_fields(root)


def never_none_fields(root: Path) -> set[str]:
    """The fields of `VllmConfig` annotated with one config class (not `X | None`) and
    defaulting by a `default_factory`: never None (`kernel_config: KernelConfig =
    Field(default_factory=KernelConfig)`)."""
    for rel in VLLM_CONFIG_FILES:
        try:
            tree = ast.parse((root / rel).read_text(encoding="utf-8"))
        except (OSError, SyntaxError):
            continue
        cls = next(
            (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "VllmConfig"), None
        )
        if cls is None:
            continue
        out = set()
        for st in cls.body:
            if not (
                isinstance(st, ast.AnnAssign)
                and isinstance(st.target, ast.Name)
                and isinstance(st.annotation, ast.Name)
                and st.annotation.id.endswith("Config")
                and isinstance(st.value, ast.Call)
            ):
                continue
            factory = [k for k in st.value.keywords if k.arg == "default_factory"]
            if factory and ast.unparse(factory[0].value) == st.annotation.id:
                out.add(st.target.id)
        return out
    return set()


def _resolve(node: ast.expr, ctx: Context) -> ast.expr:
    """A local bound once to a plain reference (`model_config = self.model_config`) stands
    for what it references."""
    seen = 0
    while isinstance(node, ast.Name) and node.id in ctx.locals and seen < 4:
        value = ctx.locals[node.id]
        if not isinstance(value, (ast.Attribute, ast.Name)):
            break
        node, seen = value, seen + 1
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, ctx)
        if base is not node.value:
            return ast.Attribute(value=base, attr=node.attr, ctx=ast.Load())
    return node


def _built_sub(node: ast.expr, ctx: Context) -> bool:
    """`self.model_config` in VllmConfig, a sub config `create_engine_config` always builds."""
    bound = _bound_arg(node, ctx)
    if bound is not None:
        return _built_sub(*bound)
    node = _resolve(node, ctx)
    return (
        ctx.owner == "VllmConfig"
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr in ctx.fields.built
    )


def _json_sub(node: ast.expr, ctx: Context) -> str | None:
    """`self.speculative_config` in VllmConfig, a sub config a JSON flag sets
    (`--speculative-config`) that vLLM's code never assigns: the flag's document key. The
    config is built when the flag is written; when it is not, whether it is None is unknown
    (`speculative_config is not None` holds on a launch that writes the flag)."""
    bound = _bound_arg(node, ctx)
    if bound is not None:
        return _json_sub(*bound)
    node = _resolve(node, ctx)
    if not (
        ctx.owner == "VllmConfig"
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr not in ctx.fields.stored
    ):
        return None
    sub = ctx.fields.sub_class(node.attr)
    return ctx.fields.json_class.get(sub) if sub is not None else None


def _stores_on_path(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    functions: list[ast.AST] = [
        n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            reached = reach_paths(cls)
            functions += [
                n
                for n in cls.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in reached
            ]
    for fn in functions:
        out |= _attributes_stored(fn)
    return out


def _attributes_stored(node: ast.AST) -> set[str]:
    """The attribute names assigned under `node`: `x.attr = …` and `setattr(x, "attr", …)`."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
            found.add(sub.attr)
        elif (
            isinstance(sub, ast.Call)
            and ast.unparse(sub.func) in ("setattr", "object.__setattr__")
            and len(sub.args) >= 2
            and isinstance(sub.args[1], ast.Constant)
        ):
            found.add(str(sub.args[1].value))
    return found


def lift_expr(node: ast.expr, ctx: Context) -> list[Any]:
    if ctx.depth > 12:
        raise Unliftable("too deep")
    ctx.depth += 1
    try:
        return _lift(node, ctx)
    finally:
        ctx.depth -= 1


def _field(path: tuple[str, Any, str], ctx: Context, name: str, stores: set[str]) -> list[Any]:
    if name in stores:
        # vLLM's code assigns it: the value at the site may not be the one the flag gave
        raise Unliftable(f"a field vLLM's code assigns: {name}")
    ctx.paths.add(path[0])
    ctx.types[path[0]] = path[2]
    return ["f", path[0]] if path[1] == NO_DEFAULT else ["f", path[0], path[1]]


def _bound_arg(node: ast.expr, ctx: Context) -> tuple[ast.expr, Context] | None:
    """A parameter of a function reached through a call (or an attribute chain rooted at
    one, `parallel_config.data_parallel_size`, `self.x` of a method called on a sub config)
    as the caller's expression, with the context the caller reads it in."""
    if not ctx.params:
        return None
    node = _resolve(node, ctx)
    chain: list[str] = []
    base = node
    while isinstance(base, ast.Attribute):
        chain.append(base.attr)
        base = base.value
    if not isinstance(base, ast.Name) or base.id not in ctx.params or base.id in ctx.bound:
        return None
    arg, caller = ctx.params[base.id]
    out = arg
    for attr in reversed(chain):
        out = ast.Attribute(value=out, attr=attr, ctx=ast.Load())
    return out, caller


def _lift(node: ast.expr, ctx: Context) -> list[Any]:
    if isinstance(node, (ast.Name, ast.Attribute)):
        bound = _bound_arg(node, ctx)
        if bound is not None:
            return lift_expr(bound[0], bound[1])
    if isinstance(node, ast.BoolOp):
        return _boolop(node, ctx)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ["not", lift_expr(node.operand, ctx)]
    if isinstance(node, ast.Compare):
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            name = COMPARE.get(type(op))
            if name is None:
                raise Unliftable("operator")
            if name in ("is", "isnot") and not (
                isinstance(right, ast.Constant) and right.value is None
            ):
                raise Unliftable("identity test")
            if name in ("is", "isnot") and _built_sub(left, ctx):
                parts.append(["c", name == "isnot"])  # a config vLLM always builds
                left = right
                continue
            written = _json_sub(left, ctx) if name in ("is", "isnot") else None
            if written is not None:  # built when its JSON flag is written, else unknown
                ctx.paths.add(written)
                ctx.types[written] = "dict"
                parts.append([name, ["f", written], ["c", None]])
                left = right
                continue
            right_value = ctx.constants.get(right.id) if isinstance(right, ast.Name) else None
            if name in ("in", "notin") and isinstance(right_value, Keys):
                rhs: list[Any] = ["c", list(right_value)]  # the keys of a registry dict
            else:
                rhs = lift_expr(right, ctx)
            parts.append([name, lift_expr(left, ctx), rhs])
            left = right
        return parts[0] if len(parts) == 1 else ["and", *parts]
    if isinstance(node, ast.BinOp):
        name = ARITH.get(type(node.op))
        if name is None:
            raise Unliftable("operator")
        return [name, lift_expr(node.left, ctx), lift_expr(node.right, ctx)]
    if isinstance(node, ast.Call):
        return _call(node, ctx)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int
    ):
        return ["idx", lift_expr(node.value, ctx), node.slice.value]  # `x[0]` of a str/list
    if isinstance(node, ast.Attribute):
        return _attribute(node, ctx)
    if isinstance(node, ast.Name):
        if ctx.value_param and node.id == ctx.value_param[0]:
            found = ctx.fields.path(ctx.owner, ctx.value_param[1], _own_rewrite(ctx))
            if found is None:
                raise Unliftable("field without one flag")
            return _field(found, ctx, ctx.value_param[1], ctx.own_stores)
        if node.id in ctx.bound:
            return ["v", node.id]
        if node.id in ctx.locals:
            return lift_expr(ctx.locals[node.id], ctx)
        if node.id in ctx.constants and not isinstance(ctx.constants[node.id], DATA):
            return ["c", ctx.constants[node.id]]
        raise Unliftable("name")
    return ["c", _literal(node, ctx.constants)]


def _boolop(node: ast.BoolOp, ctx: Context) -> list[Any]:
    """`a and b`; a part that is a constant deciding the whole (`x and False`) decides it even
    when the parts before it are not liftable, as long as those only read values (no call,
    which could raise)."""
    op = "and" if isinstance(node.op, ast.And) else "or"
    parts: list[Any] = []
    failed: Unliftable | None = None
    for value in node.values:
        try:
            part = lift_expr(value, ctx)
        except Unliftable as why:
            if any(isinstance(n, ast.Call) for n in ast.walk(value)):
                raise
            failed = failed or why
            continue
        if part[0] == "c" and bool(part[1]) is (op == "or"):
            return ["c", op == "or"]  # decides the whole, whatever came before
        parts.append(part)
    if failed is not None:
        raise failed
    return [op, *parts]


# Known pure helpers: builtins and `str` methods whose result depends on their arguments only.
TYPES = {"str", "int", "float", "bool", "list", "dict", "tuple"}
CONTAINERS = {"set": "set", "frozenset": "set", "sorted": "sorted", "list": "list", "tuple": "list"}
STR_METHODS = {"lower", "upper", "strip", "startswith", "endswith"}
DICT_VIEWS = {"items", "keys", "values"}


def _call(node: ast.Call, ctx: Context) -> list[Any]:
    """`len(x)`, `isinstance(x, str)` (a builtin type or a tuple of them), `set(x)`,
    `sorted(x)`, `list(x)`, `get_args(LiteralAlias)`, `any(... for v in x)` / `all(...)`,
    and the `str` methods lower/upper/strip/startswith/endswith of a liftable value."""
    func = node.func
    if node.keywords:
        raise Unliftable("call")
    if isinstance(func, ast.Name):
        args = node.args
        if func.id == "len" and len(args) == 1:
            return ["len", lift_expr(args[0], ctx)]
        if func.id == "isinstance" and len(args) == 2:
            kinds = args[1].elts if isinstance(args[1], ast.Tuple) else [args[1]]
            if _own_rewrite(ctx) is not None:  # the value as written: no vLLM class's instance
                kinds = [k for k in kinds if not _vllm_class(k, ctx)]
            names = [k.id for k in kinds if isinstance(k, ast.Name) and k.id in TYPES]
            if len(names) != len(kinds) or any(n in ctx.constants for n in names):
                raise Unliftable("isinstance of a non-builtin type")
            return ["isinstance", lift_expr(args[0], ctx), names]
        if func.id in CONTAINERS and len(args) == 1 and not isinstance(args[0], ast.GeneratorExp):
            return [CONTAINERS[func.id], lift_expr(args[0], ctx)]
        if func.id == "get_args" and len(args) == 1 and isinstance(args[0], ast.Name):
            found = ctx.constants.get(args[0].id)
            if isinstance(found, LiteralArgs):
                return ["c", list(found)]
            raise Unliftable("get_args of an unknown alias")
        if func.id in ("any", "all") and len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
            return _quantifier(func.id, args[0], ctx)
        raise Unliftable("call")
    if isinstance(func, ast.Attribute) and func.attr in DICT_VIEWS and not node.args:
        return [func.attr, lift_expr(func.value, ctx)]  # `d.items()`: a dict's pairs
    if (
        isinstance(func, ast.Attribute)
        and func.attr in STR_METHODS
        and (func.attr in ("startswith", "endswith")) == (len(node.args) == 1)
    ):
        receiver = lift_expr(func.value, ctx)
        return ["m", func.attr, receiver, *(lift_expr(a, ctx) for a in node.args)]
    raise Unliftable("call")


def _vllm_class(node: ast.expr, ctx: Context) -> bool:
    return isinstance(node, ast.Name) and isinstance(ctx.constants.get(node.id), VllmClass)


def _quantifier(name: str, gen: ast.GeneratorExp, ctx: Context) -> list[Any]:
    """`any(test for v in xs if cond)` -> ["any", "v", xs, test and cond]."""
    if len(gen.generators) != 1:
        raise Unliftable("nested generator")
    comp = gen.generators[0]
    names = _loop_names(comp.target)
    if names is None or comp.is_async:
        raise Unliftable("generator target")
    var: Any = names[0] if isinstance(comp.target, ast.Name) else names
    iterable = lift_expr(comp.iter, ctx)
    added = [v for v in names if v not in ctx.bound]
    ctx.bound.update(names)
    try:
        body = lift_expr(gen.elt, ctx)
        conds = [["truth", lift_expr(c, ctx)] for c in comp.ifs]
    finally:
        ctx.bound.difference_update(added)
    if conds:  # a filtered element counts only when its conditions hold
        body = (
            ["and", *conds, body] if name == "any" else ["or", *(["not", c] for c in conds), body]
        )
    return [name, var, iterable, body]


def _kept_default(owner: str, name: str, ctx: Context) -> list[Any]:
    """A field no flag sets, with `init=False` and a literal default, that no code a config
    build runs assigns (`stored_attributes`' `on_path`): the config vLLM builds from the flags
    holds the default (a method no root calls may set it on a copy it derives)."""
    rec = ctx.fields.record(owner, name)
    default = rec.get("default", NO_DEFAULT) if rec is not None else NO_DEFAULT
    if (
        rec is None
        or rec.get("init") is not False
        or not (default is None or isinstance(default, (bool, int, float, str)))
        or name in ctx.fields.on_path
    ):
        raise Unliftable("not a field a flag sets")
    return ["c", default]


def _attribute(node: ast.Attribute, ctx: Context) -> list[Any]:
    resolved = _resolve(node, ctx)
    if isinstance(resolved, ast.Attribute):
        node = resolved
    base = node.value
    if isinstance(base, ast.Name) and base.id == "self":
        found = ctx.fields.path(ctx.owner, node.attr)
        if found is None:
            return _kept_default(ctx.owner, node.attr, ctx)
        return _field(found, ctx, node.attr, ctx.own_stores)
    if isinstance(base, ast.Name) and ctx.args_param and base.id == ctx.args_param:
        if node.attr in ctx.fields.flags:
            found = (node.attr, NO_DEFAULT, ctx.fields.flags[node.attr])
            return _field(found, ctx, node.attr, ctx.fields.stored)
        raise Unliftable("not a flag")
    if isinstance(base, ast.Name) and base.id == "envs" and base.id not in ctx.locals:
        return _env(node.attr, ctx)
    if ctx.owner == "VllmConfig":
        owner = _config_class(base, ctx)
        if owner is not None:
            found = ctx.fields.path(owner, node.attr)
            if found is not None:
                return _field(found, ctx, node.attr, ctx.fields.stored)
            return _kept_default(owner, node.attr, ctx)
        raise Unliftable("not a field a flag sets")
    raise Unliftable("attribute")


def _config_class(node: ast.expr, ctx: Context) -> str | None:
    """The config class `node` holds in VllmConfig: `self.<sub>_config` (`sub_class`), or a
    field of one whose type is a config class (`self.offload_config.uva` ->
    `UVAOffloadConfig`), never one vLLM's code assigns."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return ctx.fields.sub_class(node.attr)
    if isinstance(node, ast.Attribute):
        outer = _config_class(node.value, ctx)
        rec = ctx.fields.record(outer, node.attr) if outer is not None else None
        if rec is not None and isinstance(rec.get("class"), str) and rec.get("type") == "class":
            if node.attr in ctx.fields.stored or rec.get("default", "") is None:
                return None  # replaced in code, or None unless written
            return str(rec["class"])
    return None


def _env(name: str, ctx: Context) -> list[Any]:
    """`envs.X`: the launch's `env.X` as vLLM parses it (schemas/envs/<release>.json): a
    string or a case-sensitive choice as written, a case-insensitive choice lowercased. The
    judge knows it only where the launch writes it (the process may have it otherwise)."""
    rec = ctx.fields.envs.get(name)
    if rec is None:
        raise Unliftable("an environment variable the release does not read")
    kind = rec.get("kind")
    path = f"env.{name}"
    if kind == "str" or (kind == "choice" and rec.get("case_sensitive")):
        expr: list[Any] = ["f", path]
    elif kind == "choice":
        expr = ["m", "lower", ["f", path]]
    else:
        raise Unliftable("an environment variable vLLM parses")
    ctx.paths.add(path)
    ctx.types[path] = json.dumps(rec["choices"]) if kind == "choice" else "str"
    return expr


# --------------------------------------------------------------------------
# Where a site is, and whether it is reached
# --------------------------------------------------------------------------


def _own_nodes(fn: ast.AST) -> list[ast.AST]:
    """The nodes of a function, not of the functions or classes defined inside it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _decorators(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, ast.Call | None]]:
    out = []
    for d in fn.decorator_list:
        call = d if isinstance(d, ast.Call) else None
        name = ast.unparse(call.func if call else d).split(".")[-1]
        out.append((name, call))
    return out


MAX_PATHS = 4  # ways a method is reached that are kept (their conditions are or-ed)
MAX_CHAIN = 4  # calls between a root and a method


Step = tuple[str, Any, bool]  # ("test", test, holds) | ("loop", ast.For, True)


def _is_exit(st: ast.stmt, kinds: tuple[type, ...]) -> bool:
    """`if test: ...; return` (or `continue` in the site's loop): the body ends in its only
    exit and the `if` has no else."""
    if not isinstance(st, ast.If) or st.orelse:
        return False
    exits = [n for n in _own_nodes(st) if isinstance(n, (ast.Return, ast.Continue, ast.Break))]
    return isinstance(st.body[-1], kinds) and exits == [st.body[-1]]


def _exits_in(st: ast.stmt, in_loop: bool) -> bool:
    """Whether a statement that ends before the site may leave the path to it: a `return`,
    or a `continue`/`break` of the loop that holds the site (not of a loop inside `st`)."""
    if any(isinstance(n, ast.Return) for n in _own_nodes(st)) or isinstance(st, ast.Return):
        return True
    if not in_loop:
        return False

    def walk(node: ast.AST) -> bool:
        if isinstance(node, (ast.Continue, ast.Break)):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            return any(walk(x) for x in node.orelse)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        return any(walk(c) for c in ast.iter_child_nodes(node))

    return walk(st)


def path_guards(fn: Any, line: int) -> tuple[list[Step], str]:
    """What must hold for `line` of `fn` to run, in order: the tests of the enclosing `if`s
    (`holds` False in an else branch), each early exit before it in an enclosing block
    (`if t: return` / `if t: continue` -> t is false), and the `for` loops that hold it
    (the steps after a loop are about one element of it). Or why it cannot be said."""
    steps: list[Step] = []
    body: list[ast.stmt] = list(fn.body)
    in_loop = False
    while True:
        for st in body:
            end = st.end_lineno or st.lineno
            if st.lineno > line:
                return steps, ""
            if end < line:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue  # a definition runs nothing: its returns are not exits here
                # in a loop only `continue` is an exit of one element (a return or break
                # at one element keeps the later ones from running)
                exit_kinds: tuple[type, ...] = (ast.Continue,) if in_loop else (ast.Return,)
                if _is_exit(st, exit_kinds):
                    steps.append(("test", st.test, False))  # type: ignore[attr-defined]
                elif _exits_in(st, in_loop):
                    return steps, "after an early return"
                continue
            # the statement that holds the line
            if isinstance(st, ast.If):
                if line < st.body[0].lineno:
                    return steps, ""  # in the test itself
                into_body = line <= (st.body[-1].end_lineno or st.body[-1].lineno)
                steps.append(("test", st.test, into_body))
                body = st.body if into_body else st.orelse
                break
            if isinstance(st, (ast.With, ast.AsyncWith)):
                body = st.body
                break
            if isinstance(st, ast.For):
                if line < st.body[0].lineno:
                    return steps, ""  # in the loop's header
                if line > (st.body[-1].end_lineno or st.body[-1].lineno):
                    return steps, "in a loop's else"
                if _loop_names(st.target) is None:
                    return steps, "in a loop"
                steps.append(("loop", st, True))
                body, in_loop = st.body, True
                break
            if isinstance(st, (ast.AsyncFor, ast.While)):
                return steps, "in a loop"
            if isinstance(st, ast.Try):
                in_body = any(x.lineno <= line <= (x.end_lineno or x.lineno) for x in st.body)
                if st.handlers and in_body:
                    return steps, "in a try that catches"
                if not in_body:
                    return steps, "in an exception handler"
                body = st.body
                break
            if isinstance(st, (ast.Raise, ast.Assert, ast.Expr, ast.Assign, ast.Return)):
                return steps, ""
            return steps, f"in a {type(st).__name__.lower()} statement"
        else:
            return steps, ""


def _evaluated_self_calls(st: ast.stmt) -> list[tuple[str, int]]:
    """`self.m(...)` / `cls.m(...)` calls a statement makes whenever it runs
    (`evaluated_calls`)."""
    return [
        (node.func.attr, node.lineno)
        for node in evaluated_calls(st)
        if isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("self", "cls")
    ]


def evaluated_calls(st: ast.stmt) -> list[ast.Call]:
    """The calls a statement makes whenever it runs: in a simple statement's expressions or a
    compound statement's header (an `if` test, a `for` iterable, a `with` item), and not under
    a short-circuit (`and`/`or` after the first operand, a conditional expression's branches,
    a lambda or comprehension)."""
    if isinstance(st, ast.If):
        roots: list[ast.AST] = [st.test]
    elif isinstance(st, (ast.For, ast.AsyncFor)):
        roots = [st.iter]
    elif isinstance(st, (ast.With, ast.AsyncWith)):
        roots = [i.context_expr for i in st.items]
    elif isinstance(st, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
        roots = [st.value] if st.value is not None else []
    else:
        return []
    out: list[ast.Call] = []
    stack = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Lambda, ast.comprehension, ast.ListComp, ast.SetComp)):
            continue
        if isinstance(node, (ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.BoolOp):
            stack.append(node.values[0])  # the others may not run
            continue
        if isinstance(node, ast.IfExp):
            stack.append(node.test)
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def reach_paths(cls: ast.ClassDef) -> dict[str, list[list[tuple[Any, int]]]]:
    """Methods of a class run when it is built, each with the calls that reach it from a root
    (`__post_init__`, `__init__`, `create_engine_config`, a pydantic validator): chains of
    (calling function, line of the call); a root's chain is empty. A call counts when the
    statement that holds it always makes it (`_evaluated_self_calls`); the tests that guard
    it are read by `path_guards`."""
    methods = {
        n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    roots = [
        name
        for name, fn in methods.items()
        if name in ROOTS or any(d in VALIDATORS for d, _ in _decorators(fn))
    ]
    paths: dict[str, list[list[tuple[Any, int]]]] = {r: [[]] for r in roots}
    todo = list(roots)
    while todo:
        name = todo.pop(0)
        fn = methods[name]
        calls = [
            (callee, line)
            for n in _own_nodes(fn)
            if isinstance(n, ast.stmt)
            for callee, line in _evaluated_self_calls(n)
            if callee in methods
        ]
        for callee, line in sorted(calls, key=lambda c: c[1]):
            known = paths.setdefault(callee, [])
            if [] in known:
                continue
            for chain in paths[name]:
                new = [*chain, (fn, line)]
                if len(known) < MAX_PATHS and len(new) <= MAX_CHAIN and new not in known:
                    known.append(new)
                    todo.append(callee)
    return paths


def reached_methods(cls: ast.ClassDef) -> set[str]:
    """Methods of a class run (under some condition) whenever it is built."""
    return set(reach_paths(cls))


def _enclosing(tree: ast.Module, line: int) -> tuple[ast.ClassDef | None, Any, list[ast.AST]]:
    """(class, innermost function, ancestors from the function down) of a line."""
    best: tuple[ast.ClassDef | None, Any, list[ast.AST]] = (None, None, [])

    def walk(node: ast.AST, cls: ast.ClassDef | None, chain: list[ast.AST]) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            start = getattr(child, "lineno", None)
            end = getattr(child, "end_lineno", None)
            if start is None or end is None or not (start <= line <= end):
                continue
            if isinstance(child, ast.ClassDef):
                walk(child, child, [])
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                best = (cls, child, [])
                walk(child, None, [])
            else:
                if best[1] is not None:
                    best[2].append(child)
                walk(child, cls, chain)

    walk(tree, None, [])
    return best


def _where_problem(cls: ast.ClassDef | None, fn: Any, file: str) -> str:
    if fn is None:
        return "module level"
    if cls is None:
        if file.startswith("vllm/entrypoints/") and fn.name.startswith("validate"):
            return ""
        return "module-level function"
    if fn.name not in reach_paths(cls):
        return "not run whenever the config is built"
    return ""


def _self_stores(cls: ast.ClassDef) -> set[str]:
    """Attributes of `self` a method of the class assigns."""
    return {
        n.attr
        for n in ast.walk(cls)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
    }


def early_exits(fn: Any, line: int) -> list[tuple[ast.Return, ast.expr]]:
    """(return, test) of each `if test: ...; return` statement of the function's own body
    before `line` whose body ends in its only return: the site is reached only if `test`
    was false."""
    out = []
    for st in fn.body:
        if st.lineno >= line:
            break
        if not isinstance(st, ast.If) or st.orelse or (st.end_lineno or st.lineno) >= line:
            continue
        last = st.body[-1]
        returns = [n for n in ast.walk(st) if isinstance(n, ast.Return)]
        if isinstance(last, ast.Return) and returns == [last]:
            out.append((last, st.test))
    return out


def _locals_before(fn: Any, line: int) -> tuple[dict[str, ast.expr], set[str]]:
    """Local names assigned once, by a top-level statement before `line` (liftable
    candidates), and the attributes of `self` assigned before the site."""
    counts: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    self_assigned: set[str] = set()
    for node in _own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.lineno < line
        ):
            self_assigned.add(node.attr)
    for st in fn.body:
        if st.lineno >= line:
            break
        if (
            isinstance(st, ast.Assign)
            and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name)
        ):
            name = st.targets[0].id
            if counts.get(name) == 1:
                values[name] = st.value
    return values, self_assigned


def _own_rewrite(ctx: Context) -> tuple[int, int] | None:
    """The lines of the site's function when it is a `mode="before"` field validator (its
    value parameter is the value as written)."""
    fn = ctx.function
    for name, call in _decorators(fn):
        if name == "field_validator" and call is not None:
            mode = [k.value for k in call.keywords if k.arg == "mode"]
            if mode and isinstance(mode[0], ast.Constant) and mode[0].value == "before":
                return fn.lineno, fn.end_lineno or fn.lineno
    return None


def _value_param(fn: Any) -> tuple[str, str] | None:
    for name, call in _decorators(fn):
        if name == "field_validator" and call is not None and len(call.args) == 1:
            arg = call.args[0]
            params = [a.arg for a in fn.args.args]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and len(params) >= 2:
                return params[1], arg.value
    return None


def site_test(site: mr.Site, tree: ast.Module) -> ast.expr | None:
    """An assert's test (the site raises when it is false)."""
    if site.kind == "assert":
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and node.lineno == site.line:
                return node.test
    return None


@dataclass
class Lifted:
    file: str
    line: int
    function: str
    message: str
    condition: list[Any]
    paths: list[str]
    types: dict[str, str]


def _context(
    owner: str,
    cls: ast.ClassDef | None,
    fn: Any,
    line: int,
    constants: dict,
    fields: Fields,
    shared: Context | None = None,
) -> tuple[Context, set[str]]:
    """A context for `line` of `fn`; `shared`: a context whose paths and types it adds to (the
    contexts of one lift, through calls, fill one set)."""
    local_values, self_assigned = _locals_before(fn, line)
    params = [a.arg for a in fn.args.args]
    args_param = "args" if cls is None and "args" in params else None
    ctx = Context(
        owner,
        fn,
        line,
        constants,
        fields,
        value_param=_value_param(fn),
        args_param=args_param,
        locals=local_values,
        own_stores=_self_stores(cls) if cls is not None else set(),
    )
    if shared is not None:
        ctx.paths, ctx.types = shared.paths, shared.types
    return ctx, self_assigned


def _stored_on_way(body: list[ast.stmt], line: int) -> set[str]:
    """Names assigned by the statements that run before `line` on the way to it in `body`
    (earlier statements of each enclosing block; not another branch of an `if` it is in)."""
    out: set[str] = set()
    while True:
        inner: list[ast.stmt] | None = None
        for st in body:
            if st.lineno > line:
                break
            if (st.end_lineno or st.lineno) < line:
                out |= {
                    n.id
                    for n in [st, *_own_nodes(st)]
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                }
                continue
            if isinstance(st, ast.If):
                out |= {
                    n.id
                    for n in ast.walk(st.test)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                }
                inside = line <= (st.body[-1].end_lineno or st.body[-1].lineno)
                inner = st.body if inside else st.orelse
            elif isinstance(st, (ast.For, ast.With, ast.Try)):
                inner = st.body
            break
        if inner is None:
            return out
        body = inner


def _loop_names(target: ast.expr) -> list[str] | None:
    """A loop's target: one name, or a flat tuple of names (`for k, v in d.items()`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        names = [e.id for e in target.elts if isinstance(e, ast.Name)]
        return names if len(set(names)) == len(names) else None
    return None


def _conjoin(steps: list[Step], last: list[Any] | None, ctx: Context) -> list[Any]:
    """The steps of a path as one condition; a loop turns what follows it into `any`."""
    parts: list[Any] = []
    for i, (kind, node, holds) in enumerate(steps):
        if kind == "loop":
            names = _loop_names(node.target) or []
            iterable = lift_expr(node.iter, ctx)
            if any(v in ctx.locals or v in ctx.bound or v in ctx.params for v in names):
                raise Unliftable("loop variable shadows a name")
            if set(names) & _stored_on_way(node.body, ctx.site_line):
                raise Unliftable("loop variable assigned before the site")
            ctx.bound.update(names)
            try:
                inner = _conjoin(steps[i + 1 :], last, ctx)
            finally:
                ctx.bound.difference_update(names)
            var: Any = names[0] if isinstance(node.target, ast.Name) else names
            parts.append(["any", var, iterable, inner])
            return parts[0] if len(parts) == 1 else ["and", *parts]
        lifted = ["truth", lift_expr(node, ctx)]
        parts.append(lifted if holds else ["not", lifted])
    if last is not None:
        parts.append(last)
    if not parts:
        return ["c", True]
    return parts[0] if len(parts) == 1 else ["and", *parts]


BOOLEAN = {"truth", "not", "and", "or", "any", "all", "isinstance"}


def fold(expr: list[Any]) -> list[Any]:
    """Constants folded out of and/or/not/truth (`x and False` -> False, `True and x` -> x)."""
    op = expr[0]
    if op in ("truth", "not"):
        inner = fold(expr[1])
        if inner[0] == "c":
            return ["c", bool(inner[1]) is (op == "truth")]
        return [op, inner]
    if op in ("and", "or"):
        decisive = op == "or"  # the constant that decides the whole
        parts = []
        for part in (fold(p) for p in expr[1:]):
            if part[0] == "c":
                if bool(part[1]) is decisive:
                    return ["c", decisive]
                continue
            parts.append(part)
        if not parts:
            return ["c", not decisive]
        if len(parts) == 1:  # the one part left, as a truth value
            return parts[0] if parts[0][0] in BOOLEAN else ["truth", parts[0]]
        return [op, *parts]
    return expr


def _check_assigned(self_assigned: set[str], owner: str, fields: Fields, ctx: Context) -> str:
    for attr in self_assigned:
        found = fields.path(owner, attr) if owner else None
        if found is not None and found[0] in ctx.paths:
            return "a field assigned before the site"
    return ""


@dataclass
class CallSite:
    """A call a config build makes into another function: a module-level function of the
    same file (`f(self.x)`), or a method of a sub config VllmConfig always builds
    (`self.parallel_config.m(...)`)."""

    file: str
    tree: ast.Module
    constants: dict[str, Any]
    cls: ast.ClassDef | None
    fn: Any
    call: ast.Call


CallIndex = dict[tuple[str, str, str], list[CallSite]]
MAX_FOLLOW = 2  # calls followed out of a class (module function, another config's method)


def _call_key(file: str, cls: ast.ClassDef | None, fn: Any) -> tuple[str, str, str]:
    """How `index_calls` names a function: a module function by its file, a method by its
    class (the sub config classes' names are unique)."""
    return (file, "", fn.name) if cls is None else ("", cls.name, fn.name)


def index_calls(sources: dict[str, tuple[ast.Module, dict[str, Any]]], fields: Fields) -> CallIndex:
    """The calls each method of a class makes, in a statement that always makes them
    (`evaluated_calls`), into a module-level function of its file or, in `VllmConfig`, into a
    method of a sub config `create_engine_config` always builds; whether the calling method
    itself runs is asked when a site is lifted (`_ways_in`)."""
    out: CallIndex = {}
    for file, (tree, constants) in sources.items():
        functions = {
            n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for st in _own_nodes(fn):
                    if not isinstance(st, ast.stmt):
                        continue
                    for call in evaluated_calls(st):
                        f = call.func
                        key: tuple[str, str, str] | None = None
                        if isinstance(f, ast.Name) and f.id in functions:
                            key = (file, "", f.id)
                        elif (
                            cls.name == "VllmConfig"
                            and isinstance(f, ast.Attribute)
                            and isinstance(f.value, ast.Attribute)
                            and isinstance(f.value.value, ast.Name)
                            and f.value.value.id == "self"
                            and f.value.attr in fields.built
                        ):
                            sub = fields.sub_class(f.value.attr)
                            key = ("", sub, f.attr) if sub is not None else None
                        if key is not None:
                            site = CallSite(file, tree, constants, cls, fn, call)
                            out.setdefault(key, []).append(site)
    return out


def _bind(fn: Any, method: bool, call: ast.Call, caller: Context) -> dict[str, Any]:
    """The callee's parameters bound to the call's arguments (read in the caller's context);
    a method's `self` to the receiver. A parameter the callee assigns is left unbound."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        raise Unliftable("call with * or ** arguments")
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    kwonly = [a.arg for a in fn.args.kwonlyargs]
    stored = {
        n.id for n in _own_nodes(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    out: dict[str, tuple[ast.expr, Context]] = {}
    if method:
        assert isinstance(call.func, ast.Attribute)
        out[names[0]] = (call.func.value, caller)
        names = names[1:]
    if len(call.args) > len(names):
        raise Unliftable("call with more arguments than parameters")
    for name, arg in zip(names, call.args, strict=False):
        out[name] = (arg, caller)
    for kw in call.keywords:
        if kw.arg is not None and (kw.arg in names or kw.arg in kwonly):
            out[kw.arg] = (kw.value, caller)
    return {k: v for k, v in out.items() if k not in stored}


def _param_stores(fn: Any, params: dict[str, Any], line: int) -> bool:
    """Whether the callee assigns an attribute of a bound parameter before `line`."""
    for node in _own_nodes(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in params and node.lineno < line:
                return True
    return False


def _chain_reach(
    cls: ast.ClassDef, fn: Any, constants: dict, fields: Fields, shared: Context
) -> list[Any]:
    """How a method its own class runs at build is reached from a root: the guards of each
    call and the caller's early returns conjoined, the ways or-ed; raises if none lifts."""
    owner = cls.name
    chains = reach_paths(cls).get(fn.name, [])
    if [] in chains:
        return ["c", True]
    ways: list[Any] = []
    why = "call guard"
    for chain in chains:
        parts: list[Any] = []
        try:
            for caller, line in chain:
                caller_steps, problem = path_guards(caller, line)
                if problem:
                    raise Unliftable(f"call {problem}")
                cctx, assigned = _context(owner, cls, caller, line, constants, fields, shared)
                parts.append(_conjoin(caller_steps, None, cctx))
                if _check_assigned(assigned, owner, fields, cctx):
                    raise Unliftable("a field assigned before the call")
        except Unliftable as e:
            why = f"call guard: {e}"
            continue
        parts = [p for p in parts if p != ["c", True]]
        ways.append(["and", *parts] if len(parts) > 1 else (parts or [["c", True]])[0])
    if not ways:
        raise Unliftable(why)
    return ways[0] if len(ways) == 1 else ["or", *ways]


def _ways_in(
    file: str,
    cls: ast.ClassDef | None,
    fn: Any,
    constants: dict,
    fields: Fields,
    calls: CallIndex,
    shared: Context,
    depth: int = 0,
) -> tuple[list[tuple[dict[str, Any], list[Any]]], str]:
    """Each way `fn` runs when the config is built: (its parameters bound to a caller's
    arguments, the condition of getting there), or why none lifts. A method its class's roots
    reach has one way, unbound; any other function is followed to the calls `index_calls`
    found (up to MAX_FOLLOW calls out of a class), the call's guards in the caller and the
    caller's own ways in conjoined."""
    if cls is not None and fn.name in reach_paths(cls):
        try:
            return [({}, _chain_reach(cls, fn, constants, fields, shared))], ""
        except Unliftable as e:
            return [], str(e)
    if depth >= MAX_FOLLOW:
        return [], "called too far from a root"
    found = calls.get(_call_key(file, cls, fn), [])
    if not found:
        unreached = "not run whenever the config is built"
        return [], "module-level function" if cls is None else unreached
    out: list[tuple[dict[str, Any], list[Any]]] = []
    why = ""
    for cs in found:
        owner = cs.cls.name if cs.cls is not None else ""
        line = cs.call.lineno
        ways, problem = _ways_in(
            cs.file, cs.cls, cs.fn, cs.constants, fields, calls, shared, depth + 1
        )
        why = why or problem
        for cparams, reach in ways:
            try:
                steps, problem = path_guards(cs.fn, line)
                if problem:
                    raise Unliftable(f"call {problem}")
                cctx, assigned = _context(owner, cs.cls, cs.fn, line, cs.constants, fields, shared)
                cctx.params = cparams
                if cparams:
                    cctx.args_param = cctx.value_param = None
                    if _param_stores(cs.fn, cparams, line):
                        raise Unliftable("a parameter's field assigned before the call")
                at_call = _conjoin(steps, None, cctx)
                if owner and _check_assigned(assigned, owner, fields, cctx):
                    raise Unliftable("a field assigned before the call")
                params = _bind(fn, cls is not None, cs.call, cctx)
            except Unliftable as e:
                why = why or f"through {cs.fn.name}: {e}"
                continue
            parts = [p for p in (reach, at_call) if p != ["c", True]]
            out.append((params, ["and", *parts] if len(parts) > 1 else (parts or [["c", True]])[0]))
    return out[:MAX_PATHS], why or "call guard"


def lift_site(
    site: mr.Site,
    tree: ast.Module,
    constants: dict[str, Any],
    fields: Fields,
    calls: CallIndex | None = None,
) -> Lifted | str:
    """The site's condition as data, or why not: the tests on its path in its function, and
    how that function is reached (the calls from a root in its class; with `calls`, a module
    function or another config's method followed to the calls a config build makes into it,
    its parameters bound to their arguments), each early exit before it negated, a loop around
    it read as `any` over the loop's iterable. The ways in are or-ed."""
    cls, fn, _ = _enclosing(tree, site.line)
    problem = _where_problem(cls, fn, site.file)
    followed = problem in ("module-level function", "not run whenever the config is built")
    if problem and not (followed and calls is not None):
        return problem
    steps, path_problem = path_guards(fn, site.line)
    if path_problem:
        return problem or path_problem
    assert_test = site_test(site, tree)
    if not steps and assert_test is None and not followed:
        return "unconditional"
    owner = cls.name if cls is not None else ""
    shared = Context(owner, fn, site.line, constants, fields)
    if followed:
        assert calls is not None
        ways, why = _ways_in(site.file, cls, fn, constants, fields, calls, shared)
    else:
        ways, why = [({}, ["c", True])], ""
    first = True
    alternatives: list[Any] = []
    for params, reach in ways:
        ctx, self_assigned = _context(owner, cls, fn, site.line, constants, fields, shared)
        if params:
            ctx.params = params
            ctx.args_param = ctx.value_param = None
            if _param_stores(fn, params, site.line):
                why = "a parameter's field assigned before the site"
                continue
        try:
            last = (
                ["not", ["truth", lift_expr(assert_test, ctx)]] if assert_test is not None else None
            )
            condition = _conjoin(steps, last, ctx)
        except Unliftable as e:
            why = str(e)
            continue
        if not followed and first:  # the site's own test decides before how it is reached
            first = False
            if fold(condition)[0] == "c":
                return "never holds" if fold(condition)[1] is False else "unconditional"
            if not ctx.paths:
                return "no config field"
            if cls is not None:
                try:
                    reach = _chain_reach(cls, fn, constants, fields, shared)
                except Unliftable as e:
                    return str(e)
        problem = _check_assigned(self_assigned, owner, fields, ctx)
        if problem:
            why = problem
            continue
        alternatives.append(condition if reach == ["c", True] else ["and", reach, condition])
    if not alternatives:
        return why
    condition = fold(alternatives[0] if len(alternatives) == 1 else ["or", *alternatives])
    if condition[0] == "c":
        return "never holds" if condition[1] is False else "unconditional"
    paths = sorted(_paths_of(condition))  # those a folded-away part named are not read
    if not paths:
        return "no config field"
    types = {p: shared.types[p] for p in paths}
    return Lifted(site.file, site.line, site.function, site.message, condition, paths, types)


def _paths_of(expr: Any) -> set[str]:
    if not isinstance(expr, list) or not expr:
        return set()
    if expr[0] == "f":
        return {expr[1]}
    if expr[0] == "c":
        return set()
    if expr[0] in ("any", "all"):  # expr[1]: the names the quantifier binds
        return set().union(*(_paths_of(e) for e in expr[2:]))
    return set().union(*(_paths_of(e) for e in expr[1:]))


# --------------------------------------------------------------------------
# Releases
# --------------------------------------------------------------------------


def lift_release(root: Path, release: str, uncovered: set[tuple[str, int]]) -> dict[str, Any]:
    """{(file, line): Lifted | reason} for the uncovered sites of one release."""
    validation = release_data.load_in(mr.VALIDATION, release)
    fields = Fields.of(release, validation)
    sites, _, _ = mr.collect(root)
    trees: dict[str, tuple[ast.Module, dict[str, Any]]] = {}
    modules: dict[str, dict[str, Any]] = {}
    out: dict[tuple[str, int], Lifted | str] = {}
    calls: CallIndex | None = None
    for site in sites:
        if (site.file, site.line) not in uncovered:
            continue
        if not fields.stored:
            fields.stored = stored_attributes(root, fields.on_path)
            fields.built = always_built(root)
        if site.file not in trees:
            tree = ast.parse((root / site.file).read_text(encoding="utf-8"))
            constants = {**imported_constants(tree, root, modules), **module_constants(tree)}
            trees[site.file] = (tree, constants)
        tree, constants = trees[site.file]
        if calls is None:
            calls = index_calls(_call_sources(root, sites, uncovered, trees, modules), fields)
        out[(site.file, site.line)] = lift_site(site, tree, constants, fields, calls)
    return out


VLLM_CONFIG_FILES = ("vllm/config/vllm.py", "vllm/config/__init__.py", "vllm/config.py")


def _call_sources(
    root: Path,
    sites: list[mr.Site],
    uncovered: set[tuple[str, int]],
    trees: dict[str, tuple[ast.Module, dict[str, Any]]],
    modules: dict[str, dict[str, Any]],
) -> dict[str, tuple[ast.Module, dict[str, Any]]]:
    """The parsed files whose calls are followed: those of the uncovered sites (a module
    function's callers are in its file) and the one that defines `VllmConfig`."""
    files = {s.file for s in sites if (s.file, s.line) in uncovered}
    files |= {f for f in VLLM_CONFIG_FILES if (root / f).is_file()}
    for file in sorted(files):
        if file not in trees:
            try:
                tree = ast.parse((root / file).read_text(encoding="utf-8"))
            except (OSError, SyntaxError):
                continue
            constants = {**imported_constants(tree, root, modules), **module_constants(tree)}
            trees[file] = (tree, constants)
    return {f: trees[f] for f in files if f in trees}


def coverage_releases(coverage: Path = mr.OUT) -> list[str]:
    return sorted(
        (p.stem for p in coverage.glob("*.json")),
        key=mr.vkey,
    )


def merge(per_release: dict[str, dict[tuple[str, int], Any]]) -> list[dict[str, Any]]:
    """Entries deduplicated over releases: one per (file, function, message, condition)."""
    order = list(per_release)
    entries: dict[str, dict[str, Any]] = {}
    for release in order:
        for lifted in per_release[release].values():
            if not isinstance(lifted, Lifted):
                continue
            key = json.dumps(
                [lifted.file, lifted.function, lifted.message, lifted.condition], sort_keys=True
            )
            entry = entries.setdefault(
                key,
                {
                    "file": lifted.file,
                    "function": lifted.function,
                    "message": lifted.message,
                    "condition": lifted.condition,
                    "paths": lifted.paths,
                    "types": lifted.types,
                    "releases": [],
                    "lines": {},
                },
            )
            entry["releases"].append(release)
            if not entry["lines"] or list(entry["lines"].values())[-1] != lifted.line:
                entry["lines"][release] = lifted.line
    out = []
    for entry in entries.values():
        rels = entry.pop("releases")
        ranges: list[list[str]] = []
        for rel in rels:
            if ranges and order.index(ranges[-1][1]) == order.index(rel) - 1:
                ranges[-1][1] = rel
            else:
                ranges.append([rel, rel])
        entry["ranges"] = ranges
        out.append(entry)
    out.sort(key=lambda e: (e["file"], e["function"], mr.vkey(e["ranges"][0][0])))
    for i, entry in enumerate(out):
        entry["id"] = f"L{i + 1:04d}"
    return out


def render(entries: list[dict[str, Any]], dropped: dict[str, str]) -> str:
    def j(v: Any) -> str:
        return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{", f'"format":{FORMAT_VERSION},', f'"dropped":{j(dropped)},', '"entries":[']
    lines += [j(e) + ("," if i < len(entries) - 1 else "") for i, e in enumerate(entries)]
    lines += ["]", "}"]
    return "\n".join(lines) + "\n"


def uncovered_sites(release: str) -> set[tuple[str, int]]:
    """Sites of the release's coverage file that no rule or mined check covers (a lifted
    site counts as uncovered here: the lifter decides it again)."""
    data = json.loads((mr.OUT / f"{release}.json").read_text(encoding="utf-8"))
    return {(s["file"], s["line"]) for s in data["sites"] if s["cover"] in ("uncovered", "lifted")}


def lift_all(
    releases: list[str], src_dir: Path, cache_dir: Path, download: bool
) -> dict[str, dict[tuple[str, int], Any]]:
    from tools import extract_flags as ef

    out = {}
    for rel in releases:
        root = ef.ensure_source(rel, cache_dir, src_dir, download)
        out[rel] = lift_release(root, rel, uncovered_sites(rel))
    return out


def dropped_ids() -> dict[str, str]:
    """Entries the oracle disagreed with (key -> reason), kept across runs: read from the
    shipped file."""
    if not OUT.is_file():
        return {}
    return dict(json.loads(OUT.read_text(encoding="utf-8")).get("dropped", {}))


def verified_ids() -> dict[str, list[str]]:
    """The oracle releases that verified each entry (key -> releases), from the shipped file
    (`tools/conformance/lifted.py` writes them)."""
    if not OUT.is_file():
        return {}
    entries = json.loads(OUT.read_text(encoding="utf-8"))["entries"]
    return {entry_key(e): e["verified"] for e in entries if e.get("verified")}


def kept(
    entries: list[dict[str, Any]], dropped: dict[str, str], verified: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """The entries less those the oracle contradicted, with what verified the others,
    numbered."""
    out = [e for e in entries if entry_key(e) not in dropped]
    for i, entry in enumerate(out):
        entry["id"] = f"L{i + 1:04d}"
        if entry_key(entry) in verified:
            entry["verified"] = verified[entry_key(entry)]
    return out


def entry_key(entry: dict[str, Any]) -> str:
    return f"{entry['file']}|{entry['function']}|{json.dumps(entry['condition'], sort_keys=True)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", nargs="+", help="default: every release of tools/coverage/")
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument("--no-download", action="store_true")
    ap.add_argument("--check", action="store_true")
    ns = ap.parse_args(argv)
    releases = ns.releases or coverage_releases()
    per = lift_all(releases, ns.src_dir, ns.cache_dir, not ns.no_download)
    dropped = dropped_ids()
    text = render(kept(merge(per), dropped, verified_ids()), dropped)
    if ns.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"stale: {OUT} (run python -m tools.lift_raises)", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    n = sum(1 for r in per.values() for v in r.values() if isinstance(v, Lifted))
    print(f"{n} site(s) lifted over {len(per)} release(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
