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
  ``field_validator`` of one field; never a field vLLM rewrites in code (``rewritten``), one
  with ``init=False``, or one assigned in the function before the site;
* a constant, a module-level constant, a literal list/tuple/set, a local name assigned once
  before the site from a liftable expression;
* ``len()``, ``+ - * // %``, comparisons (chained too), ``in``/``not in``, ``is``/``is not``
  ``None``, ``and``/``or``/``not``.

The site must be reached whenever the config is built: in ``__post_init__``/``__init__``, a
pydantic validator, ``EngineArgs.create_engine_config``, a serve-args ``validate*`` function,
or a method those call unconditionally (a top-level statement before any ``return``), and not
after an early ``return``, inside a loop or inside a ``try`` that catches.

Output: ``schemas/lifted.json``, one entry per distinct (file, function, message, condition)
with the releases it holds for as ranges and the line per release. The evaluator is
``hooks/vllm_lint/rules/lifted.py``; the oracle verdicts that keep an entry shipped are in
``tools/conformance/lifted.py``. Expression language (JSON lists, first item the operator):
``["f", path]`` a field, ``["c", value]`` a constant, ``["and"|"or", a, b, ...]``,
``["not", a]``, ``["len", a]``, ``[op, a, b]`` for ``< <= > >= == != in notin is isnot + - *
// %``, ``["truth", a]`` Python truthiness.
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
ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
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
        return cls(flags, choices, by_field, json_class, classes)

    def record(self, owner: str, name: str) -> dict[str, Any] | None:
        return self.classes.get(owner, {}).get("fields", {}).get(name)

    def path(self, owner: str, name: str) -> tuple[str, Any, str] | None:
        """(document path, class default or NO_DEFAULT, type) of `owner.name`, or None."""
        if owner == "EngineArgs":
            return (name, NO_DEFAULT, self.flags[name]) if name in self.flags else None
        rec = self.record(owner, name)
        if rec is None or "rewritten" in rec or rec.get("init") is False or "skip" in rec:
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
        return constants[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand, constants)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value
    raise Unliftable("not a literal")


def module_constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level names bound once to a literal (`_VALID = ("a", "b")`)."""
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
                    values[t.id] = _literal(value, {}) if value is not None else None
                except Unliftable:
                    values.pop(t.id, None)
    return {k: v for k, v in values.items() if counts.get(k) == 1}


def stored_attributes(root: Path) -> set[str]:
    """Every attribute name assigned (`x.name = ...`, `setattr(x, "name", ...)`) in the files
    the sites come from: a field vLLM's code rewrites is not lifted."""
    out: set[str] = set()
    for rel, _ in mr.files_in_scope(root):
        try:
            tree = ast.parse((root / rel).read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
            elif (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) in ("setattr", "object.__setattr__")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                out.add(str(node.args[1].value))
    return out


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
        raise Unliftable("a field vLLM's code assigns")
    ctx.paths.add(path[0])
    ctx.types[path[0]] = path[2]
    return ["f", path[0]] if path[1] == NO_DEFAULT else ["f", path[0], path[1]]


def _lift(node: ast.expr, ctx: Context) -> list[Any]:
    if isinstance(node, ast.BoolOp):
        op = "and" if isinstance(node.op, ast.And) else "or"
        return [op, *(lift_expr(v, ctx) for v in node.values)]
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
            parts.append([name, lift_expr(left, ctx), lift_expr(right, ctx)])
            left = right
        return parts[0] if len(parts) == 1 else ["and", *parts]
    if isinstance(node, ast.BinOp):
        name = ARITH.get(type(node.op))
        if name is None:
            raise Unliftable("operator")
        return [name, lift_expr(node.left, ctx), lift_expr(node.right, ctx)]
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
            return ["len", lift_expr(node.args[0], ctx)]
        raise Unliftable("call")
    if isinstance(node, ast.Attribute):
        return _attribute(node, ctx)
    if isinstance(node, ast.Name):
        if ctx.value_param and node.id == ctx.value_param[0]:
            found = ctx.fields.path(ctx.owner, ctx.value_param[1])
            if found is None:
                raise Unliftable("field without one flag")
            return _field(found, ctx, ctx.value_param[1], ctx.own_stores)
        if node.id in ctx.locals:
            return lift_expr(ctx.locals[node.id], ctx)
        if node.id in ctx.constants:
            return ["c", ctx.constants[node.id]]
        raise Unliftable("name")
    return ["c", _literal(node, ctx.constants)]


def _attribute(node: ast.Attribute, ctx: Context) -> list[Any]:
    base = node.value
    if isinstance(base, ast.Name) and base.id == "self":
        found = ctx.fields.path(ctx.owner, node.attr)
        if found is None:
            raise Unliftable("not a field a flag sets")
        return _field(found, ctx, node.attr, ctx.own_stores)
    if isinstance(base, ast.Name) and ctx.args_param and base.id == ctx.args_param:
        if node.attr in ctx.fields.flags:
            found = (node.attr, NO_DEFAULT, ctx.fields.flags[node.attr])
            return _field(found, ctx, node.attr, ctx.fields.stored)
        raise Unliftable("not a flag")
    if (
        ctx.owner == "VllmConfig"
        and isinstance(base, ast.Attribute)
        and isinstance(base.value, ast.Name)
        and base.value.id == "self"
    ):
        sub = ctx.fields.sub_class(base.attr)
        if sub is not None:
            found = ctx.fields.path(sub, node.attr)
            if found is not None:
                return _field(found, ctx, node.attr, ctx.fields.stored)
        raise Unliftable("not a field a flag sets")
    raise Unliftable("attribute")


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


def _unconditional_calls(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """`self.m()` made by a top-level statement of `fn` before any return."""
    out: set[str] = set()
    for st in fn.body:
        if any(isinstance(n, ast.Return) for n in ast.walk(st)):
            break
        if isinstance(st, (ast.Expr, ast.Assign, ast.AnnAssign)) and isinstance(st.value, ast.Call):
            f = st.value.func
            if (
                isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id == "self"
            ):
                out.add(f.attr)
    return out


def reached_methods(cls: ast.ClassDef) -> set[str]:
    """Methods of a class run whenever it is built: roots, validators, and what they call
    unconditionally."""
    methods = {
        n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    todo = [
        name
        for name, fn in methods.items()
        if name in ROOTS or any(d in VALIDATORS for d, _ in _decorators(fn))
    ]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.add(name)
        todo.extend(_unconditional_calls(methods[name]))
    return seen


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


def _reach_problem(
    cls: ast.ClassDef | None, fn: Any, ancestors: list[ast.AST], site: mr.Site, file: str
) -> str:
    if fn is None:
        return "module level"
    if any(isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.comprehension)) for a in ancestors):
        return "in a loop"
    for a in ancestors:
        if isinstance(a, ast.Try) and a.handlers:
            inside_body = any(
                st.lineno <= site.line <= (st.end_lineno or st.lineno) for st in a.body
            )
            if inside_body:
                return "in a try that catches"
    exits = {id(st) for st, _ in early_exits(fn, site.line)}
    for node in _own_nodes(fn):
        if (
            isinstance(node, (ast.Return, ast.Continue, ast.Break))
            and node.lineno < site.line
            and id(node) not in exits
        ):
            return "after an early return"
    if cls is None:
        if file.startswith("vllm/entrypoints/") and fn.name.startswith("validate"):
            return ""
        return "module-level function"
    if fn.name not in reached_methods(cls):
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


def _value_param(fn: Any) -> tuple[str, str] | None:
    for name, call in _decorators(fn):
        if name == "field_validator" and call is not None and len(call.args) == 1:
            arg = call.args[0]
            params = [a.arg for a in fn.args.args]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and len(params) >= 2:
                return params[1], arg.value
    return None


def condition_nodes(site: mr.Site, tree: ast.Module) -> list[tuple[ast.expr, bool]]:
    """The tests that must hold for the site to raise, (test, holds) in order."""
    out = list(site.guard_nodes)
    if site.kind == "assert":
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and node.lineno == site.line:
                out.append((node.test, False))
                break
    return out


@dataclass
class Lifted:
    file: str
    line: int
    function: str
    message: str
    condition: list[Any]
    paths: list[str]
    types: dict[str, str]


def lift_site(
    site: mr.Site, tree: ast.Module, constants: dict[str, Any], fields: Fields
) -> Lifted | str:
    """The site's condition as data, or why not."""
    cls, fn, ancestors = _enclosing(tree, site.line)
    exits = [(test, False) for _, test in early_exits(fn, site.line)] if fn is not None else []
    tests = condition_nodes(site, tree)
    if not tests:
        return "unconditional"
    tests = exits + tests
    problem = _reach_problem(cls, fn, ancestors, site, site.file)
    if problem:
        return problem
    owner = cls.name if cls is not None else ""
    local_values, self_assigned = _locals_before(fn, site.line)
    params = [a.arg for a in fn.args.args]
    args_param = "args" if cls is None and "args" in params else None
    ctx = Context(
        owner,
        fn,
        site.line,
        constants,
        fields,
        value_param=_value_param(fn),
        args_param=args_param,
        locals=local_values,
        own_stores=_self_stores(cls) if cls is not None else set(),
    )
    try:
        parts = []
        for test, holds in tests:
            lifted = ["truth", lift_expr(test, ctx)]
            parts.append(lifted if holds else ["not", lifted])
    except Unliftable as why:
        return str(why)
    if not ctx.paths:
        return "no config field"
    for attr in self_assigned:
        found = fields.path(owner, attr) if owner else None
        if found is not None and found[0] in ctx.paths:
            return "a field assigned before the site"
    condition = parts[0] if len(parts) == 1 else ["and", *parts]
    return Lifted(
        site.file, site.line, site.function, site.message, condition, sorted(ctx.paths), ctx.types
    )


# --------------------------------------------------------------------------
# Releases
# --------------------------------------------------------------------------


def lift_release(root: Path, release: str, uncovered: set[tuple[str, int]]) -> dict[str, Any]:
    """{(file, line): Lifted | reason} for the uncovered sites of one release."""
    validation = release_data.load_in(mr.VALIDATION, release)
    fields = Fields.of(release, validation)
    sites, _, _ = mr.collect(root)
    trees: dict[str, tuple[ast.Module, dict[str, Any]]] = {}
    out: dict[tuple[str, int], Lifted | str] = {}
    for site in sites:
        if (site.file, site.line) not in uncovered:
            continue
        if not fields.stored:
            fields.stored = stored_attributes(root)
        if site.file not in trees:
            tree = ast.parse((root / site.file).read_text(encoding="utf-8"))
            trees[site.file] = (tree, module_constants(tree))
        tree, constants = trees[site.file]
        out[(site.file, site.line)] = lift_site(site, tree, constants, fields)
    return out


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
