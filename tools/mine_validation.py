#!/usr/bin/env python3
"""Mine what pydantic validates in each vLLM release: ``schemas/validation/<release>.json``.

    python -m tools.mine_validation                     # every release of schemas/flags/index.json
    python -m tools.mine_validation --releases 0.33.0   # some of them (the others are kept)
    python -m tools.mine_validation --check             # exit 1 if a shipped file is stale

The source of each release is the wheel's, unpacked by ``extract_flags.ensure_source`` into
``/tmp/vllm-src/<release>/`` and read with :mod:`ast` only (vLLM and torch are never imported).

What is read, per release (format in tools/README.md and schemas/validation.schema.json):

* the ``vllm serve`` parser, interpreted as tools/extract_flags.py does (``interpret_serve``):
  which config class and field each flag's argparse kwargs came from (``get_kwargs``);
* ``vllm/engine/arg_utils.py``: every call that builds a config class (``CacheConfig(
  block_size=self.block_size, ...)``). A flag is *validated* when its value reaches a keyword
  of such a call unchanged (``field=self.<dest>``) and the class is one pydantic validates
  (a ``BaseModel``, a ``pydantic.dataclasses.dataclass``, or vLLM's ``@config`` from 0.16);
  a stdlib dataclass built the same way checks nothing;
* JSON-valued flags: ``parse_dataclass`` (``TypeAdapter(cls).validate_json``, 0.10+; 0.9 calls
  the class's ``from_cli`` first), a ``from_cli`` classmethod (``model_validate_json``), or a
  ``json.loads`` value given later to ``Cls(**value)`` (``--speculative-config``; from 0.26
  its keys have ``-`` replaced by ``_`` first, vllm/engine/arg_utils.py:1768 in 0.26.0);
* each reachable class (flag classes, JSON roots, the dataclass/BaseModel types of their
  fields, recursively): every field's type kind, ``Field(gt/ge/lt/le/multiple_of/min_length/
  max_length)`` (also in ``Annotated[...]``, ``PositiveInt`` & co., ``conint``...), literal
  default, ``init=False``, ``SkipValidation``, and the ``mode="before"/"wrap"/"plain"``
  validators that see the raw value first. Validators of a few shapes are understood (a wrap
  validator that only lets ``None`` through, ``Enum[value.upper()]`` lookups, str
  normalisation, ``Cls(**value)`` for a dict); any other marks the field ``rewritten`` and a
  ``mode="before"/"wrap"`` model validator marks the whole class, so the linter never judges
  a value vLLM may change before pydantic sees it.

Pydantic facts this relies on (checked with pydantic 2.14, vLLM requires >= 2.9 / 2.12):
``TypeAdapter`` validates a stdlib dataclass's fields (``Field`` constraints included) and
ignores unknown keys; a stdlib dataclass nested in a pydantic class is validated with the
parent's config (``extra="forbid"`` included); an ``init=False`` field given as a key is an
unknown key; defaults are never validated; a stdlib dataclass built with ``Cls(**value)``
checks no type but refuses unknown keys (``TypeError``).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from tools import extract_flags as ef
except ImportError:  # run as a script: python tools/mine_validation.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools import extract_flags as ef
from vllm_lint import release_data

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "schemas" / "validation"
FLAGS_INDEX = REPO / "schemas" / "flags" / "index.json"
FORMAT_VERSION = 1

CONSTRAINTS = ("gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length")
# pydantic's constrained aliases (pydantic/types.py)
CONSTRAINED_NAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "PositiveInt": ("int", {"gt": 0}),
    "NegativeInt": ("int", {"lt": 0}),
    "NonNegativeInt": ("int", {"ge": 0}),
    "NonPositiveInt": ("int", {"le": 0}),
    "PositiveFloat": ("float", {"gt": 0}),
    "NegativeFloat": ("float", {"lt": 0}),
    "NonNegativeFloat": ("float", {"ge": 0}),
    "NonPositiveFloat": ("float", {"le": 0}),
}
CON_FUNCS = {"conint": "int", "confloat": "float", "constr": "str", "conlist": "list"}
# annotated_types markers inside Annotated[...]
ANNOTATED_MARKERS = {
    "Gt": "gt",
    "Ge": "ge",
    "Lt": "lt",
    "Le": "le",
    "MultipleOf": "multiple_of",
    "MinLen": "min_length",
    "MaxLen": "max_length",
}


def release_list() -> list[str]:
    """The releases of schemas/flags/index.json, oldest first."""
    index = json.loads(FLAGS_INDEX.read_text(encoding="utf-8"))
    return [r["release"] for r in index["releases"]]


def rel_source(tree: ef.SourceTree, mod: ef.Module, line: int) -> str:
    return f"{mod.path.relative_to(tree.root).as_posix()}:{line}"


def _jsonable_default(value: Any) -> tuple[bool, Any]:
    if isinstance(value, float) and not math.isfinite(value):
        return False, None
    if isinstance(value, list | tuple):
        out = []
        for item in value:
            ok, v = _jsonable_default(item)
            if not ok:
                return False, None
            out.append(v)
        return True, out
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            return False, None
        outd = {}
        for k, item in value.items():
            ok, v = _jsonable_default(item)
            if not ok:
                return False, None
            outd[k] = v
        return True, outd
    if value is None or isinstance(value, bool | int | float | str):
        return True, value
    if isinstance(value, set | frozenset):
        return _jsonable_default(sorted(value, key=repr))
    return False, None


# --------------------------------------------------------------------------
# Classes: pydantic or not, extra keys
# --------------------------------------------------------------------------


def is_pydantic(cref: ef.ClassRef) -> bool:
    """Whether pydantic validates the class when it is built (a BaseModel, a pydantic
    dataclass, or vLLM's own ``@config`` that makes one, 0.16+)."""
    return ef._pydantic_validated(cref)


def declared_extra(cref: ef.ClassRef) -> str:
    """``forbid``/``ignore`` for a pydantic class (``allow`` too, if ever), ``inherit`` for a
    stdlib dataclass: nested in a pydantic class it takes that class's setting."""
    if not is_pydantic(cref):
        return "inherit"
    for kw in cref.node.keywords:  # class X(BaseModel, extra="forbid")
        if kw.arg == "extra" and isinstance(kw.value, ast.Constant):
            return str(kw.value.value)
    return ef.json_extra_of(cref)


def is_config_class(cref: ef.ClassRef) -> bool:
    return ef.is_dataclass_cls(cref) or ef.is_basemodel(cref)


# --------------------------------------------------------------------------
# Constraints from Field(...) and the annotation
# --------------------------------------------------------------------------


def _is_pydantic_name(mod: ef.Module, node: ast.expr, name: str) -> bool:
    """``node`` names pydantic's ``name`` (not e.g. ``dataclasses.Field``)."""
    text = ef.dotted(node)
    if text.split(".")[-1] != name:
        return False
    head = text.split(".")[0]
    binding = mod.bindings.get(head)
    if binding is None:
        return False
    if binding.kind == "import":
        return binding.target_mod.startswith("pydantic") or binding.target_mod.startswith(
            "annotated_types"
        )
    if binding.kind == "module":
        return binding.target_mod.startswith("pydantic")
    return False


def _const(mod: ef.Module, node: ast.expr) -> Any:
    v = ef.literal_default(mod, node)
    if isinstance(v, ef.Unknown | bool):
        return None
    if isinstance(v, int | float) and math.isfinite(v):
        return v
    return None


def _call_constraints(mod: ef.Module, call: ast.Call) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg in CONSTRAINTS:
            v = _const(mod, kw.value)
            if v is not None:
                out[kw.arg] = v
        if kw.arg in ("min_items", "max_items"):  # conlist's old spelling
            v = _const(mod, kw.value)
            if v is not None:
                out[kw.arg.replace("items", "length")] = v
    return out


def annotation_constraints(
    mod: ef.Module, node: ast.expr | None, depth: int = 0
) -> tuple[dict[str, Any], bool]:
    """(constraints, SkipValidation seen) carried by a type hint: ``Annotated[T, Field(gt=0)]``,
    ``Annotated[T, Gt(0)]``, ``PositiveInt``, ``conint(ge=1)``, through aliases and unions."""
    if node is None or depth > 20:
        return {}, False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            sub = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return {}, False
        return annotation_constraints(mod, sub, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        a, sa = annotation_constraints(mod, node.left, depth + 1)
        b, sb = annotation_constraints(mod, node.right, depth + 1)
        return ({**a, **b} if not (a and b) else {}), sa or sb
    if isinstance(node, ast.Call):
        fn = ef.dotted(node.func).split(".")[-1]
        if fn in CON_FUNCS:
            return _call_constraints(mod, node), False
        return {}, False
    if isinstance(node, ast.Subscript):
        head = ef.dotted(node.value).split(".")[-1]
        sl = node.slice
        elts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        if head == "SkipValidation":
            inner, _ = annotation_constraints(mod, elts[0], depth + 1)
            return inner, True
        if head == "Annotated":
            out, skip = annotation_constraints(mod, elts[0], depth + 1)
            for meta in elts[1:]:
                if isinstance(meta, ast.Call):
                    name = ef.dotted(meta.func).split(".")[-1]
                    if name == "Field":
                        out.update(_call_constraints(mod, meta))
                    elif name in ANNOTATED_MARKERS and meta.args:
                        v = _const(mod, meta.args[0])
                        if v is not None:
                            out[ANNOTATED_MARKERS[name]] = v
                    elif name == "SkipValidation":
                        skip = True
                elif ef.dotted(meta).split(".")[-1] == "SkipValidation":
                    skip = True
            return out, skip
        if head in ("Optional",):
            return annotation_constraints(mod, sl, depth + 1)
        if head == "Union":
            merged: dict[str, Any] = {}
            skip = False
            carriers = 0
            for e in elts:
                c, s = annotation_constraints(mod, e, depth + 1)
                skip = skip or s
                if c:
                    carriers += 1
                    merged.update(c)
            return (merged if carriers == 1 else {}), skip
        if head in ("ClassVar", "Final", "Required", "NotRequired"):
            return annotation_constraints(mod, sl, depth + 1)
        return {}, False
    if isinstance(node, ast.Name | ast.Attribute):
        short = ef.dotted(node).split(".")[-1]
        if short in CONSTRAINED_NAMES and _is_pydantic_name(mod, node, short):
            return dict(CONSTRAINED_NAMES[short][1]), False
        if short == "SkipValidation":
            return {}, True
        ref = ef.resolve_expr_ref(mod, node)
        if isinstance(ref, tuple):  # an alias: X = Annotated[...]
            amod, value = ref
            if isinstance(value, ast.Call) and ef.dotted(value.func).split(".")[-1] in (
                "NewType",
                "TypeAliasType",
            ):
                if len(value.args) >= 2:
                    return annotation_constraints(amod, value.args[1], depth + 1)
                return {}, False
            return annotation_constraints(amod, value, depth + 1)
    return {}, False


# --------------------------------------------------------------------------
# Validators that see the raw value first
# --------------------------------------------------------------------------


@dataclass
class Rewrite:
    """What a before/wrap/plain field validator does, when its shape is understood."""

    kind: str  # null_ok | enum_name | normalize | construct | opaque
    source: str
    extra_words: dict[str, Any] = field(default_factory=dict)  # enum_name: word -> result
    enum: ef.ClassRef | None = None
    calls: list[list[str]] = field(default_factory=list)  # normalize
    cls: ef.ClassRef | None = None  # construct


def _body(fn: ast.FunctionDef) -> list[ast.stmt]:
    out = []
    for st in fn.body:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue  # docstring
        if isinstance(st, ast.Import | ast.ImportFrom):
            continue
        out.append(st)
    return out


def _params(fn: ast.FunctionDef) -> list[str]:
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    decos = {ef.dotted(d) for d in fn.decorator_list}
    if names and (names[0] in ("cls", "self") or "classmethod" in decos):
        names = names[1:]
    return names


def _is_name(node: ast.expr | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _is_none_test(node: ast.expr, value: str) -> bool:
    return (
        isinstance(node, ast.Compare)
        and _is_name(node.left, value)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    )


def _is_handler_call(node: ast.expr | None, handler: str, value: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and _is_name(node.func, handler)
        and len(node.args) == 1
        and _is_name(node.args[0], value)
        and not node.keywords
    )


def _match_null_ok(fn: ast.FunctionDef) -> bool:
    """``if value is None: return value`` then ``return handler(value)`` (or the same as
    one conditional expression): the constraints hold for every value but ``None``."""
    params = _params(fn)
    if len(params) < 2:
        return False
    value, handler = params[0], params[1]
    body = _body(fn)
    if (
        len(body) == 2
        and isinstance(body[0], ast.If)
        and _is_none_test(body[0].test, value)
        and not body[0].orelse
        and len(body[0].body) == 1
        and isinstance(body[0].body[0], ast.Return)
        and (
            _is_name(body[0].body[0].value, value)
            or (
                isinstance(body[0].body[0].value, ast.Constant)
                and body[0].body[0].value.value is None
            )
        )
        and isinstance(body[1], ast.Return)
        and _is_handler_call(body[1].value, handler, value)
    ):
        return True
    if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.IfExp):
        e = body[0].value
        return (
            _is_none_test(e.test, value)
            and (
                (isinstance(e.body, ast.Constant) and e.body.value is None)
                or _is_name(e.body, value)
            )
            and _is_handler_call(e.orelse, handler, value)
        )
    return False


def _isinstance_test(node: ast.expr, value: str) -> str | None:
    """``isinstance(value, str)`` -> "str"."""
    if (
        isinstance(node, ast.Call)
        and _is_name(node.func, "isinstance")
        and len(node.args) == 2
        and _is_name(node.args[0], value)
    ):
        return ef.dotted(node.args[1])
    return None


def _split_guarded(fn: ast.FunctionDef, value: str, typ: str) -> list[ast.stmt] | None:
    """The body of ``if isinstance(value, <typ>): ...`` when the function is exactly that
    block followed by ``return value``; else None."""
    body = _body(fn)
    if (
        len(body) == 2
        and isinstance(body[0], ast.If)
        and _isinstance_test(body[0].test, value) == typ
        and not body[0].orelse
        and isinstance(body[1], ast.Return)
        and _is_name(body[1].value, value)
    ):
        return body[0].body
    return None


def _upper_of(node: ast.expr | None, names: set[str]) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "upper"
        and not node.args
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in names
    )


def _match_enum_name(
    fn: ast.FunctionDef, mod: ef.Module
) -> tuple[ef.ClassRef, dict[str, Any]] | None:
    """``if isinstance(value, str): [if value.lower() == "auto": return None] return
    E[value.upper()]`` then ``return value`` (also through ``name = value.upper()`` and a
    ``if name not in E.__members__: raise``): a str is a member *name*, any case (or one of
    the extra words); anything else is validated as the field's type."""
    params = _params(fn)
    if not params:
        return None
    value = params[0]
    block = _split_guarded(fn, value, "str")
    if block is None:
        return None
    upper_names = {value}  # names bound to value.upper() (value itself: E[value.upper()])
    uppers: set[str] = set()
    extras: dict[str, Any] = {}
    for i, st in enumerate(block):
        last = i == len(block) - 1
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and _upper_of(st.value, {value}):
            if isinstance(st.targets[0], ast.Name):
                uppers.add(st.targets[0].id)
                continue
            return None
        if isinstance(st, ast.If) and not st.orelse:
            t = st.test
            # if value.lower() == "auto": return None
            if (
                isinstance(t, ast.Compare)
                and isinstance(t.left, ast.Call)
                and isinstance(t.left.func, ast.Attribute)
                and t.left.func.attr == "lower"
                and _is_name(t.left.func.value, value)
                and len(t.ops) == 1
                and isinstance(t.ops[0], ast.Eq)
                and isinstance(t.comparators[0], ast.Constant)
                and len(st.body) == 1
                and isinstance(st.body[0], ast.Return)
                and isinstance(st.body[0].value, ast.Constant)
            ):
                extras[str(t.comparators[0].value)] = st.body[0].value.value
                continue
            # if name not in E.__members__: raise ...
            if (
                isinstance(t, ast.Compare)
                and isinstance(t.left, ast.Name)
                and t.left.id in uppers
                and len(t.ops) == 1
                and isinstance(t.ops[0], ast.NotIn)
                and isinstance(t.comparators[0], ast.Attribute)
                and t.comparators[0].attr == "__members__"
                and all(isinstance(s, ast.Raise) for s in st.body)
            ):
                continue
            return None
        if last and isinstance(st, ast.Return) and isinstance(st.value, ast.Subscript):
            sub = st.value
            key = sub.slice
            if _upper_of(key, upper_names) or (isinstance(key, ast.Name) and key.id in uppers):
                ref = ef.resolve_expr_ref(mod, sub.value)
                if isinstance(ref, ef.ClassRef) and ef.is_enum(ref):
                    return ref, extras
            return None
        return None
    return None


def _match_normalize(fn: ast.FunctionDef) -> list[list[str]] | None:
    """``if isinstance(value, str): return value.lower().replace("-", "_")`` then
    ``return value``: the str methods in order."""
    params = _params(fn)
    if not params:
        return None
    value = params[0]
    block = _split_guarded(fn, value, "str")
    if block is None or len(block) != 1 or not isinstance(block[0], ast.Return):
        return None
    expr = block[0].value
    calls: list[list[str]] = []
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        name = expr.func.attr
        if ef.REPLAYABLE_STR_METHODS.get(name) != len(expr.args) or expr.keywords:
            return None
        if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in expr.args):
            return None
        calls.append([name, *(str(a.value) for a in expr.args if isinstance(a, ast.Constant))])
        expr = expr.func.value
    if not calls or not _is_name(expr, value):
        return None
    return list(reversed(calls))


def _match_construct(fn: ast.FunctionDef, mod: ef.Module) -> ef.ClassRef | None:
    """``if isinstance(value, dict): return Cls(**value)`` then ``return value``."""
    params = _params(fn)
    if not params:
        return None
    value = params[0]
    block = _split_guarded(fn, value, "dict")
    if block is None or len(block) != 1 or not isinstance(block[0], ast.Return):
        return None
    call = block[0].value
    if (
        isinstance(call, ast.Call)
        and not call.args
        and len(call.keywords) == 1
        and call.keywords[0].arg is None
        and _is_name(call.keywords[0].value, value)
    ):
        ref = ef.resolve_expr_ref(mod, call.func)
        if isinstance(ref, ef.ClassRef):
            return ref
    return None


def _decorator_modes(fn: ast.FunctionDef) -> list[tuple[str, list[str], str]]:
    """[(field_validator|model_validator, field names, mode)] of one method."""
    out = []
    for d in fn.decorator_list:
        if not isinstance(d, ast.Call):
            continue
        kind = ef.dotted(d.func).split(".")[-1]
        if kind not in ("field_validator", "model_validator"):
            continue
        mode = "after"
        for kw in d.keywords:
            if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
                mode = str(kw.value.value)
        names = [str(a.value) for a in d.args if isinstance(a, ast.Constant)]
        out.append((kind, names, mode))
    return out


def class_validators(
    cref: ef.ClassRef, tree: ef.SourceTree
) -> tuple[dict[str, list[Rewrite]], str | None]:
    """(field -> what its early validators do, source of an early model validator)."""
    per_field: dict[str, list[Rewrite]] = {}
    model_early: str | None = None
    for c in reversed(ef.class_mro(cref)):
        for st in c.node.body:
            if not isinstance(st, ast.FunctionDef):
                continue
            for kind, names, mode in _decorator_modes(st):
                if mode not in ("before", "wrap", "plain"):
                    continue
                src = rel_source(tree, c.mod, st.lineno)
                if kind == "model_validator":
                    model_early = model_early or src
                    continue
                rw: Rewrite
                if mode == "wrap" and _match_null_ok(st):
                    rw = Rewrite("null_ok", src)
                elif mode == "before" and (m := _match_enum_name(st, c.mod)) is not None:
                    rw = Rewrite("enum_name", src, extra_words=m[1], enum=m[0])
                elif mode == "before" and (n := _match_normalize(st)) is not None:
                    rw = Rewrite("normalize", src, calls=n)
                elif mode == "before" and (k := _match_construct(st, c.mod)) is not None:
                    rw = Rewrite("construct", src, cls=k)
                else:
                    rw = Rewrite("opaque", src)
                for name in names:
                    per_field.setdefault(name, []).append(rw)
    return per_field, model_early


# --------------------------------------------------------------------------
# Fields
# --------------------------------------------------------------------------


KIND_OF_HINT = {
    "bool": "bool",
    "int": "int",
    "float": "float",
    "str": "str",
    "dict": "dict",
    "dictsub": "dict",
    "list": "list",
    "tuple": "list",
    "set": "list",
    "literal": "literal",
    "enum": "enum",
    "dataclass": "class",
}


@dataclass
class FieldFacts:
    name: str
    record: dict[str, Any]
    nested: ef.ClassRef | None = None  # the config class of a nested field
    nested_via: str = "nested"  # nested | constructor (a before validator builds it)
    enum: ef.ClassRef | None = None


def _field_call(mod: ef.Module, value: ast.expr | None) -> ast.Call | None:
    if isinstance(value, ast.Call):
        name = ef.dotted(value.func).split(".")[-1]
        if name in ("Field", "field"):
            return value
    return None


def _init_false(call: ast.Call | None) -> bool:
    if call is None:
        return False
    return any(
        kw.arg == "init" and isinstance(kw.value, ast.Constant) and kw.value.value is False
        for kw in call.keywords
    )


def class_scope_default(owner: ef.ClassRef, value: ast.expr | None, unknown: Any) -> Any:
    """A default naming a class attribute: ``Field(default=DEFAULT_MAX_NUM_SEQS)`` with
    ``DEFAULT_MAX_NUM_SEQS: ClassVar[int] = 128`` in the class body (SchedulerConfig)."""
    node = value
    if isinstance(node, ast.Call):
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        node = kw.get("default", node.args[0] if node.args else None)
    if not isinstance(node, ast.Name):
        return unknown
    for c in ef.class_mro(owner):
        for st in c.node.body:
            target = st.target if isinstance(st, ast.AnnAssign) else None
            if isinstance(st, ast.Assign) and len(st.targets) == 1:
                target = st.targets[0]
            if isinstance(target, ast.Name) and target.id == node.id:
                v = ef.literal_default(c.mod, getattr(st, "value", None))
                return unknown if isinstance(v, ef.Unknown) else v
    return unknown


def field_facts(
    name: str,
    st: ast.AnnAssign,
    owner: ef.ClassRef,
    rewrites: list[Rewrite],
    pydantic_model: bool,
) -> FieldFacts:
    mod = owner.mod
    hints = ef.analyse_annotation(mod, st.annotation)
    rec: dict[str, Any] = {}
    kinds: list[str] = []
    literal_values: list[Any] = []
    nested: ef.ClassRef | None = None
    enum_ref: ef.ClassRef | None = None
    nullable = False
    for h in hints:
        if h.kind == "none":
            nullable = True
            continue
        kind = KIND_OF_HINT.get(h.kind)
        if h.kind == "class" and h.cls is not None and ef.is_basemodel(h.cls):
            kind = "class"
        if kind is None:
            kind = "any"
        if kind == "class" and nested is None:
            nested = h.cls
        if kind == "enum" and enum_ref is None:
            enum_ref = h.cls
        if kind == "literal":
            for v in h.args:
                if isinstance(v, ef.Unknown):
                    kind = "any"
                    break
                if v is None:
                    nullable = True
                elif v not in literal_values:
                    literal_values.append(v)
        if kind not in kinds:
            kinds.append(kind)
    if "any" in kinds or not kinds:
        kinds = ["any"]
    rec["type"] = kinds[0] if len(kinds) == 1 else sorted(kinds)
    if "literal" in kinds and literal_values:
        ok, vals = _jsonable_default(literal_values)
        if ok:
            rec["values"] = vals
        else:
            rec["type"] = "any"
    if enum_ref is not None and "enum" in kinds:
        rec["enum"] = enum_ref  # named when the release is rendered (Miner._finish)
    if "class" in kinds and nested is not None:
        rec["class"] = nested
    if nullable:
        rec["null"] = True
    # constraints: Field(...) as the default, then the annotation
    call = _field_call(mod, st.value)
    constraints, skip = annotation_constraints(mod, st.annotation)
    if call is not None and ef.dotted(call.func).split(".")[-1] == "Field":
        constraints.update(_call_constraints(mod, call))
    for key in CONSTRAINTS:
        if key in constraints:
            rec[key] = constraints[key]
    # default
    default = ef.literal_default(mod, st.value)
    if isinstance(default, ef.Unknown) and default.src not in ("MISSING", "factory"):
        default = class_scope_default(owner, st.value, default)
    if isinstance(default, ef.Unknown):
        if default.src == "MISSING":
            rec["required"] = True
    else:
        if isinstance(default, ef.EnumMember):
            default = default.value
        ok, dv = _jsonable_default(default)
        if ok:
            rec["default"] = dv
    if _init_false(call) or (pydantic_model and name.startswith("_")):
        rec["init"] = False
        rec.pop("required", None)
    if skip:
        rec["skip"] = "SkipValidation"
    nested_via = "nested"
    for rw in rewrites:
        if rw.kind == "null_ok":
            rec["null"] = True
        elif rw.kind == "enum_name" and rw.enum is not None:
            rec["match"] = "name_upper"
            rec["enum_by_name"] = rw.enum
            if rw.extra_words:
                rec["extra_words"] = dict(sorted(rw.extra_words.items()))
            enum_ref = enum_ref or rw.enum
        elif rw.kind == "normalize":
            rec["normalize"] = rw.calls
        elif rw.kind == "construct" and rw.cls is not None and rw.cls == nested:
            nested_via = "constructor"
        else:
            rec["rewritten"] = rw.source
    shaping = [rw for rw in rewrites if rw.kind in ("enum_name", "normalize", "construct")]
    if len(shaping) > 1:
        rec["rewritten"] = shaping[-1].source  # several validators shape the value: not judged
    if rec.get("enum_by_name") == rec.get("enum"):
        rec.pop("enum_by_name", None)  # the annotation's own enum, looked up by name
    return FieldFacts(name, rec, nested, nested_via, enum_ref)


# --------------------------------------------------------------------------
# arg_utils: constructor calls, JSON flags built later, dash keys
# --------------------------------------------------------------------------


@dataclass
class Construction:
    cls: ef.ClassRef
    kwargs: dict[str, str]  # keyword -> the attribute of self given unchanged ("" otherwise)
    star: list[str]  # self.<attr> given as **
    source: str
    # the call runs only if these hold: "<attr>" (self.<attr> is truthy), "" (another test)
    guards: list[str] = field(default_factory=list)


def _self_attr(node: ast.expr | None) -> str:
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return node.attr
    return ""


def _given_attr(node: ast.expr | None, aliases: dict[str, str]) -> str:
    """The ``self.<attr>`` whose value, when the user gave one, reaches here unchanged:
    ``self.x``, a local bound to it, or ``self.x if self.x is not None else <default>``
    (data_parallel_rpc_port, vllm/engine/arg_utils.py:2559 in 0.33)."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id, "")
    if isinstance(node, ast.IfExp):
        attr = _self_attr(node.body)
        t = node.test
        if (
            attr
            and isinstance(t, ast.Compare)
            and _self_attr(t.left) == attr
            and len(t.ops) == 1
            and isinstance(t.ops[0], ast.IsNot)
            and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value is None
        ):
            return attr
        return ""
    return _self_attr(node)


def _is_none_of(test: ast.expr, attr: str) -> bool:
    """``self.<attr> is None``."""
    return (
        isinstance(test, ast.Compare)
        and _self_attr(test.left) == attr
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def value_aliases(fn: ast.FunctionDef) -> dict[str, str]:
    """Locals that hold the user's value unchanged whenever the user gave one: assigned once
    from ``self.x`` (or ``self.x if self.x is not None else d``), or assigned anything under
    ``if self.x is None:`` and ``self.x`` in its ``else`` (data_parallel_address,
    vllm/engine/arg_utils.py:2539-2555 in 0.33)."""
    assigned: dict[str, list[ast.Assign]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            if isinstance(t, ast.Name):
                assigned.setdefault(t.id, []).append(node)
    out: dict[str, str] = {}
    for name, nodes in assigned.items():
        if len(nodes) == 1:
            attr = _given_attr(nodes[0].value, {})
            if attr:
                out[name] = attr
            continue
        for node in ast.walk(fn):
            if not (isinstance(node, ast.If) and len(node.orelse) == 1):
                continue
            st = node.orelse[0]
            if not (
                isinstance(st, ast.Assign)
                and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Name)
                and st.targets[0].id == name
            ):
                continue
            attr = _self_attr(st.value)
            inside = {
                id(a)
                for a in ast.walk(node)
                if isinstance(a, ast.Assign) and a in nodes  # every assignment is in this if
            }
            if attr and _is_none_of(node.test, attr) and len(inside) == len(nodes):
                out[name] = attr
    return out


def constructions(tree: ef.SourceTree) -> tuple[list[Construction], dict[str, str]]:
    """Every ``SomeConfig(...)`` / ``SomeConfig.from_dict(self.x)`` call of
    vllm/engine/arg_utils.py, and the JSON attributes whose keys get ``-`` -> ``_``
    (attr -> source)."""
    mod = tree.module("vllm.engine.arg_utils")
    assert mod is not None
    out: list[Construction] = []
    dashes: dict[str, str] = {}
    for fn in ast.walk(mod.ast):
        if not isinstance(fn, ast.FunctionDef):
            continue
        star_aliases: dict[str, str] = {}  # cfg = self.x (json.loads of it later is fine)
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and _self_attr(node.value):
                    star_aliases[target.id] = _self_attr(node.value)
                # self.x = {k.replace("-", "_"): v for k, v in self.x.items()}
                if isinstance(node.value, ast.DictComp):
                    comp = node.value
                    gen = comp.generators[0] if comp.generators else None
                    key_src = ef.dotted(comp.key)
                    if (
                        gen is not None
                        and isinstance(gen.iter, ast.Call)
                        and isinstance(gen.iter.func, ast.Attribute)
                        and gen.iter.func.attr == "items"
                        and _self_attr(gen.iter.func.value)
                        and ".replace('-', '_')" in key_src
                    ):
                        dashes[_self_attr(gen.iter.func.value)] = rel_source(tree, mod, node.lineno)
        aliases = value_aliases(fn)
        parents = {c: n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            from_dict = False
            if isinstance(func, ast.Attribute) and func.attr in ("from_dict",):
                func = func.value
                from_dict = True
            ref = ef.resolve_expr_ref(mod, func)
            if not isinstance(ref, ef.ClassRef) or not is_config_class(ref):
                continue
            kwargs: dict[str, str] = {}
            star: list[str] = []
            for kw in node.keywords:
                if kw.arg is None:
                    attr = _self_attr(kw.value)
                    if not attr and isinstance(kw.value, ast.Name):
                        attr = star_aliases.get(kw.value.id, "")
                    if attr:
                        star.append(attr)
                else:
                    kwargs[kw.arg] = _given_attr(kw.value, aliases)
            if from_dict and node.args:
                attr = _self_attr(node.args[0])
                if not attr and isinstance(node.args[0], ast.Name):
                    attr = star_aliases.get(node.args[0].id, "")
                if attr and _from_dict_constructs(ref):
                    star.append(attr)
            out.append(
                Construction(
                    ref, kwargs, star, rel_source(tree, mod, node.lineno), _guards(node, parents)
                )
            )
    return out, dashes


def _guards(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> list[str]:
    """The tests a call runs under within its function: ``if self.enable_lora:`` gives
    "enable_lora"; any other test (or the else branch) gives ""."""
    out: list[str] = []
    cur = node
    while cur in parents:
        p = parents[cur]
        if isinstance(p, ast.If | ast.IfExp | ast.While) and cur is not p.test:
            in_body = cur in p.body if isinstance(p.body, list) else cur is p.body
            attr = _self_attr(p.test) if in_body else ""
            out.append(attr)
        cur = p
    return out


def _from_dict_constructs(cref: ef.ClassRef) -> bool:
    """``from_dict`` is ``return cls(**dict_value)`` (SpeculativeConfig, 0.8-0.9)."""
    for st in cref.node.body:
        if isinstance(st, ast.FunctionDef) and st.name == "from_dict":
            body = _body(st)
            return (
                len(body) == 1
                and isinstance(body[0], ast.Return)
                and isinstance(body[0].value, ast.Call)
                and _is_name(body[0].value.func, "cls")
                and len(body[0].value.keywords) == 1
                and body[0].value.keywords[0].arg is None
            )
    return False


def _from_cli_via(fn: ef.FuncRef) -> str:
    src = ast.unparse(fn.node)
    if "TypeAdapter(" in src and "validate_json" in src:
        return "type_adapter"
    if "model_validate" in src:
        return "model_validate"
    return ""


# --------------------------------------------------------------------------
# One release
# --------------------------------------------------------------------------


@dataclass
class Root:
    cls: ef.ClassRef
    via: str  # type_adapter | model_validate | constructor
    source: str
    dash_keys: str = ""


class Miner:
    def __init__(self, root: Path, release: str):
        self.release = release
        self.tree = ef.SourceTree(root)
        self.interp, self.sink = ef.interpret_parser(self.tree)
        features = ef.read_parser_features(self.tree)
        self.enable_disable = bool(features.get("enable_disable_pairing"))
        self.owner_refs: dict[str, ef.ClassRef] = {}
        for modname, cname in self.interp.kwargs_cache:
            mod = self.tree.module(modname)
            b = mod.bindings.get(cname) if mod is not None else None
            if mod is not None and b is not None and b.kind == "class":
                self.owner_refs.setdefault(cname, ef.ClassRef(mod, b.node))
        self.builds, self.dashes = constructions(self.tree)
        self.classes: dict[ef.ClassRef, dict[str, Any]] = {}
        self.enums: set[ef.ClassRef] = set()
        self.names: dict[ef.ClassRef, str] = {}
        self.profile_from_cli = "from_cli" in ast.unparse(
            next(
                n
                for n in self.tree.module("vllm.engine.arg_utils").ast.body  # type: ignore[union-attr]
                if isinstance(n, ast.FunctionDef)
                and n.name in ("_compute_kwargs", "get_kwargs")
                and "is_dataclass" in ast.unparse(n)
            )
            if self.interp.profile.dataclass_json
            else ast.parse("")
        )

    # -- flags -------------------------------------------------------------
    def flag_records(self) -> list[tuple[str, dict[str, Any], ef.ArgRecord]]:
        seen: set[str] = set()
        out = []
        for rec in self.sink:
            if not rec.option_strings or rec.positional:
                continue
            name, record = ef.build_record(rec, self.enable_disable)
            if name in seen:
                continue
            seen.add(name)
            out.append((name, record, rec))
        return out

    def json_root(self, name: str, record: dict[str, Any], rec: ef.ArgRecord) -> Root | None:
        fk = rec.kwargs.get("__field__")
        dest = rec.kwargs.get("dest") if isinstance(rec.kwargs.get("dest"), str) else None
        dest = dest or name[2:].replace("-", "_")
        raw_type = rec.kwargs.get("type")
        if isinstance(fk, ef.FieldKwargs):
            jc = fk.info.get("json_class")
            cached = self._cached_kwargs(fk)
            if (
                isinstance(jc, ef.ClassRef)
                and cached is not None
                and raw_type is cached.get("type")  # the parse_dataclass of get_kwargs
            ):
                via = "type_adapter"
                if self.profile_from_cli:
                    meth = self.interp.find_method(jc, "from_cli")
                    if meth is not None:
                        via = _from_cli_via(meth) or "opaque"
                return Root(jc, via, self.interp.profile.source)
        if isinstance(raw_type, ef.FuncRef) and raw_type.owner is not None:
            via = _from_cli_via(raw_type)
            if via:
                return Root(
                    raw_type.owner,
                    via,
                    rel_source(self.tree, raw_type.mod, raw_type.node.lineno),
                )
        if record.get("type") not in ("json", "json_or_str"):
            return None
        for b in self.builds:
            if dest in b.star:
                return Root(b.cls, "constructor", b.source, self.dashes.get(dest, ""))
        return None

    def _cached_kwargs(self, fk: ef.FieldKwargs) -> dict[str, Any] | None:
        for (_, cname), kw in self.interp.kwargs_cache.items():
            if cname == fk.owner and fk.fname in kw:
                return kw[fk.fname]
        return None

    def validated_flag(self, name: str, rec: ef.ArgRecord) -> tuple[ef.ClassRef, str] | None:
        """(class, field) when the flag's value reaches a validating constructor as is: the
        keyword of the field ``get_kwargs`` made the flag from, or (a flag written by hand,
        such as --data-parallel-rpc-port) any keyword given the flag's attribute."""
        dest = rec.kwargs.get("dest") if isinstance(rec.kwargs.get("dest"), str) else None
        dest = dest or name[2:].replace("-", "_")
        fk = rec.kwargs.get("__field__")
        if isinstance(fk, ef.FieldKwargs):
            owner = self.owner_refs.get(fk.owner)
            if owner is None or not is_pydantic(owner):
                return None
            found = [b for b in self.builds if b.cls == owner and b.kwargs.get(fk.fname) == dest]
            return (owner, fk.fname, found) if found else None
        for b in self.builds:
            if not is_pydantic(b.cls):
                continue
            names = {n for n, _, _ in ef.fields_of(b.cls)}
            for kw, attr in sorted(b.kwargs.items()):
                if attr == dest and kw in names:
                    return b.cls, kw, [b]
        return None

    def condition(self, builds: list[Construction], dests: dict[str, str]) -> str | None:
        """None when one of the calls always runs; else the boolean flag they all run under
        ("--enable-lora" for LoRAConfig, vllm/engine/arg_utils.py:2692 in 0.33), or "" when
        that is not one flag."""
        if any(not b.guards for b in builds):
            return None
        flags = {dests.get(g, "") if g else "" for b in builds for g in b.guards[:1]}
        if len(flags) == 1 and all(len(b.guards) == 1 for b in builds):
            return flags.pop()
        return ""

    # -- classes -----------------------------------------------------------
    def describe(self, cref: ef.ClassRef) -> None:
        if cref in self.classes:
            return
        pyd = is_pydantic(cref)
        entry: dict[str, Any] = {
            "source": rel_source(self.tree, cref.mod, cref.node.lineno),
            "pydantic": pyd,
            "extra": declared_extra(cref),
        }
        self.classes[cref] = entry
        rewrites, model_early = class_validators(cref, self.tree) if pyd else ({}, None)
        if model_early:
            entry["model_before"] = model_early
        fields: dict[str, Any] = {}
        base_model = ef.is_basemodel(cref)
        nested_todo: list[ef.ClassRef] = []
        for fname, st, owner in ef.fields_of(cref):
            if base_model and fname.startswith("_"):
                continue  # a private attribute, not a field
            rws = rewrites.get(fname, []) + rewrites.get("*", [])
            facts = field_facts(fname, st, owner, rws, base_model)
            rec = facts.record
            if "class" in rec and facts.nested is not None and is_config_class(facts.nested):
                nested_todo.append(facts.nested)
                if facts.nested_via == "constructor":
                    rec["via"] = "constructor"  # a before validator builds it: Cls(**value)
            else:
                rec.pop("class", None)
            for key in ("enum", "enum_by_name"):
                if isinstance(rec.get(key), ef.ClassRef):
                    self.enums.add(rec[key])
            fields[fname] = rec
        entry["fields"] = fields
        for n in nested_todo:
            self.describe(n)

    def mine(self) -> dict[str, Any]:
        flags: dict[str, tuple[ef.ClassRef, str]] = {}
        conditional: dict[str, str] = {}
        json_flags: dict[str, dict[str, Any]] = {}
        records = self.flag_records()
        dests: dict[str, str] = {}  # EngineArgs attribute -> its boolean flag
        for name, record, rec in records:
            dest = rec.kwargs.get("dest") if isinstance(rec.kwargs.get("dest"), str) else None
            if record.get("is_bool"):
                dests.setdefault(dest or name[2:].replace("-", "_"), name)
        for name, record, rec in records:
            root = self.json_root(name, record, rec)
            if root is not None:
                pyd = is_pydantic(root.cls)
                own = declared_extra(root.cls)
                if root.via == "constructor":
                    validated = pyd
                    extra = own if pyd else "forbid"
                elif root.via in ("type_adapter", "model_validate"):
                    validated = True
                    extra = "ignore" if own == "inherit" else own
                else:
                    validated = False
                    extra = "unknown"
                entry: dict[str, Any] = {
                    "class": root.cls,
                    "via": root.via,
                    "validated": validated,
                    "extra": extra,
                    "source": root.source,
                }
                if root.dash_keys:
                    entry["dash_keys"] = root.dash_keys
                json_flags[name] = entry
                self.describe(root.cls)
                continue
            target = self.validated_flag(name, rec)
            if target is not None:
                flags[name] = (target[0], target[1])
                cond = self.condition(target[2], dests)
                if cond is not None:
                    conditional[name] = cond
                self.describe(target[0])
        self._name_classes()
        classes_out = {self.names[c]: self._finish(e) for c, e in self.classes.items()}
        for entry in json_flags.values():
            entry["class"] = self.names[entry["class"]]
        flags_out = {f: f"{self.names[c]}.{fname}" for f, (c, fname) in flags.items()}
        enums_out: dict[str, Any] = {}
        for eref in self.enums:
            ename = self.names[eref]
            members = ef.enum_members(eref)
            ok, vals = ef._jsonable([m.value for m in members])
            e: dict[str, Any] = {
                "names": [m.name for m in members],
                "source": rel_source(self.tree, eref.mod, eref.node.lineno),
            }
            if ok:
                e["values"] = vals
            enums_out[ename] = e
        return {
            "format": FORMAT_VERSION,
            "release": self.release,
            "flags": dict(sorted(flags_out.items())),
            "conditional": dict(sorted(conditional.items())),
            "json_flags": dict(sorted(json_flags.items())),
            "classes": dict(sorted(classes_out.items())),
            "enums": dict(sorted(enums_out.items())),
        }

    def _name_classes(self) -> None:
        """Class and enum names, qualified by their module where two share a name."""
        by_name: dict[str, list[ef.ClassRef]] = {}
        for c in [*self.classes, *self.enums]:
            by_name.setdefault(c.name, []).append(c)
        for name, refs in by_name.items():
            if len(refs) == 1:
                self.names[refs[0]] = name
            else:
                for r in refs:
                    self.names[r] = f"{r.mod.name}.{name}"

    def _finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        for rec in entry["fields"].values():
            for key in ("class", "enum", "enum_by_name"):
                if isinstance(rec.get(key), ef.ClassRef):
                    rec[key] = self.names[rec[key]]
        return entry


# Registries whose names vLLM looks up when it builds a config or starts the engine (a name
# outside them is refused), read from the module-level `register_*("Name", ...)` calls.
# (registry, files where it may live, the registering call or the module-level dict)
REGISTRIES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    # KVConnectorFactory.get_connector_class: "Unsupported connector type: {name}" unless
    # kv_connector_module_path names the class (factory.py:128 in 0.33)
    (
        "kv_connector",
        ("vllm/distributed/kv_transfer/kv_connector/factory.py",),
        "call:register_connector",
    ),
    # validate_api_server_args: "invalid tool call parser" / "invalid reasoning parser"
    # (entrypoints/common/cli_args.py:620/:629 in 0.33), names registered lazily from a dict
    (
        "tool_call_parser",
        ("vllm/tool_parsers/__init__.py", "vllm/entrypoints/openai/tool_parsers/__init__.py"),
        "dict:_TOOL_PARSERS_TO_REGISTER",
    ),
    ("reasoning_parser", ("vllm/reasoning/__init__.py",), "dict:_REASONING_PARSERS_TO_REGISTER"),
)


def _registered(tree: ast.AST, how: str) -> tuple[list[str], int]:
    kind, _, name = how.partition(":")
    names: list[str] = []
    first = 0
    for node in ast.walk(tree):
        if (
            kind == "call"
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append(node.args[0].value)
            first = first or node.lineno
        elif kind == "dict" and isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets) and isinstance(
                node.value, ast.Dict
            ):
                keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
                names += [k for k in keys if isinstance(k, str)]
                first = first or node.lineno
    return names, first


def mine_registries(root: Path) -> dict[str, Any]:
    """Each registry's names, sorted, and where they are registered."""
    out: dict[str, Any] = {}
    for name, candidates, how in REGISTRIES:
        for rel in candidates:
            path = root / rel
            if not path.is_file():
                continue
            names, first = _registered(ast.parse(path.read_text(encoding="utf-8")), how)
            if names:
                out[name] = {"names": sorted(set(names)), "source": f"{rel}:{first}"}
                break
    return out


def mine_release(root: Path, release: str) -> dict[str, Any]:
    data = Miner(root, release).mine()
    data["registries"] = mine_registries(root)
    return data


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def render(data: dict[str, Any]) -> str:
    """Compact and deterministic: one line per flag, class and enum."""

    def j(v: Any) -> str:
        return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    keys = ["format", "release", "flags", "conditional", "json_flags", "classes", "enums"]
    keys += ["registries"] if "registries" in data else []
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, dict) and value:
            lines.append(f"{j(key)}:{{")
            items = sorted(value.items())
            for k, (name, item) in enumerate(items):
                c = "," if k < len(items) - 1 else ""
                lines.append(f"{j(name)}:{j(item)}{c}")
            lines.append("}" + comma)
        else:
            lines.append(f"{j(key)}:{j(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_per_release(
        argv, __doc__, OUT, lambda root, rel: mine_release(root, rel), render, "mine_validation"
    )


def data_keyframes(releases: list[str]) -> set[str]:
    """Releases stored whole: the newest, and the newest patch of every series up to 0.9 and
    of 0.10, 0.15, 0.20 … (a pin reads at most a few differences more than its own file;
    the old series' files are small)."""
    newest: dict[str, str] = {}
    for rel in releases:
        newest[ef.minor_of(rel)] = rel
    keep = {releases[-1]} if releases else set()
    keep |= {
        rel
        for minor, rel in newest.items()
        if int(minor.split(".")[1]) <= 9 or int(minor.split(".")[1]) % 5 == 0
    }
    return keep


def store(
    out: Path, mined: dict[str, dict[str, Any]], render: Callable[[dict[str, Any]], str]
) -> None:
    """Write the folder's releases as keyframes (`render`) and differences against the next
    newer release (hooks/vllm_lint/release_data.py): the releases just mined replace theirs,
    the others are kept as they are (read whole first)."""
    out.mkdir(parents=True, exist_ok=True)
    docs = {p.stem: release_data.load_in(out, p.stem) for p in out.glob("*.json")}
    docs.update(mined)
    releases = sorted((r for r, d in docs.items() if d is not None), key=ef.version_key)
    whole = data_keyframes(releases)
    for older, newer in zip(releases, [*releases[1:], None], strict=True):
        doc = docs[older]
        assert doc is not None
        if newer is None or older in whole:
            text = render(doc)
        else:
            newer_doc = docs[newer]
            assert newer_doc is not None
            delta = {"release": older, "next": newer, **release_data.difference(newer_doc, doc)}
            # compact, one line per key (the linter reads these on its cold path)
            compact = {"sort_keys": True, "ensure_ascii": False, "separators": (",", ":")}
            lines = [
                f"{json.dumps(k)}:{json.dumps(v, **compact)}" for k, v in sorted(delta.items())
            ]
            text = "{" + ",\n".join(lines) + "}\n"
        (out / f"{older}.json").write_text(text, encoding="utf-8")


def write_per_release(
    argv: list[str] | None,
    doc: str | None,
    out: Path,
    mined: Callable[[Path, str], dict[str, Any]],
    render: Callable[[dict[str, Any]], str],
    tool: str,
) -> int:
    """The command line of a tool that writes one generated JSON file per release (this one,
    tools/mine_envs.py): `mined(source_root, release)` is the release's document, `render` its
    text when stored whole (`store`: keyframes and differences); `--check` compares the
    documents instead of writing (exit 1 if stale)."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    ap.add_argument("--releases", nargs="+", help="default: every release of schemas/flags")
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument("--no-download", action="store_true")
    ap.add_argument(
        "--check", action="store_true", help="compare with the shipped files instead of writing"
    )
    ns = ap.parse_args(argv)
    releases = ns.releases or release_list()
    stale: list[str] = []
    docs: dict[str, dict[str, Any]] = {}
    for rel in releases:
        root = ef.ensure_source(rel, ns.cache_dir, ns.src_dir, not ns.no_download)
        try:
            docs[rel] = json.loads(render(mined(root, rel)))
        except RuntimeError as exc:  # e.g. no vllm/envs.py before 0.4.2: no file
            print(f"{rel}: {exc}", file=sys.stderr)
            continue
        if ns.check and release_data.load_in(ns.out, rel) != docs[rel]:
            stale.append(rel)
    if not ns.check:
        store(ns.out, docs, render)
        print(f"{len(docs)} release(s) written to {ns.out}", file=sys.stderr)
    if ns.check:
        if stale:
            print(f"stale: {', '.join(stale)} (run python -m tools.{tool})", file=sys.stderr)
            return 1
        print(f"{len(releases)} release(s) current", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
