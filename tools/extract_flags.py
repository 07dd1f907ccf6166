#!/usr/bin/env python3
"""Extract the ``vllm serve`` CLI flag catalogs statically from vLLM wheels.

Usage::

    python tools/extract_flags.py                      # all releases of RELEASES
    python tools/extract_flags.py --releases 0.33.0 0.34.0 --out /tmp/flags

For every release the wheel is downloaded with ``pip download --no-deps`` into a
cache directory (default ``/tmp/vllm-wheels``), its Python files are unpacked to
``/tmp/vllm-src/<release>/vllm`` (reused when present), and the parser is read
with :mod:`ast` only -- vLLM and torch are never imported.

Method (see shared/reference/vllm-flags.md section 2):

* start at ``ServeSubcommand.subparser_init`` in ``vllm/entrypoints/cli/serve.py``
  and interpret its statements with a tiny symbolic evaluator: calls that get
  the parser (``make_arg_parser(parser)``, ``FrontendArgs.add_cli_args(parser)``,
  ``super().add_cli_args(parser)``, ``cls._customize_cli_kwargs(kw)`` ...) are
  followed through the import graph, and every ``add_argument`` call is
  recorded (both branches of an ``if`` whose test is not statically known);
* ``get_kwargs(SomeConfig)`` is replicated: the dataclass fields (base classes
  first) are read and their annotation AST is mapped like vLLM's
  ``_compute_kwargs`` of that very release (the branches that exist in the
  release are detected from its source: JSON for dataclasses, optional-value
  ``bool | str | None``, human-readable ints, ``int | "auto"`` max-model-len,
  ``Literal`` + ``str`` -> metavar, ``set`` collections);
* edits of the kwargs (``kw["f"]["type"] = ...``, ``del kw["f"]["nargs"]``,
  ``kw["f"]["choices"].remove(x)``, ``{**kw["f"], "default": None}``) and the
  frontend ``for key, value in kw.items()`` loop are evaluated.

The ``type`` of a record is one of (documented in tools/README.md):

``str``, ``int``, ``float``, ``bool`` (boolean flags), ``json`` (JSON object or
list: ``json.loads``, a dataclass parsed by pydantic, ``dict`` fields),
``json_or_str`` (``union_dict_and_str``: JSON if it looks like an object,
otherwise a plain string), ``human_int`` (int with k/m/g/K/M/G suffixes),
``int_or_auto`` (``human_int`` or ``auto``/-1 for ``--max-model-len``),
``port`` (int checked to be in 1024..65535), ``custom`` (another callable, its
source is in ``type_source``).  ``nullable`` is true when ``None`` / empty string
are accepted as values (``optional_type``).

Parser conveniences (``parser_features``) are read from the source of
``FlexibleArgumentParser`` with string heuristics and then checked against
:data:`HAND_VERIFIED_FEATURES` (hand-verified against the source of the
releases, see the comments there).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

# Every release on PyPI from 0.2.0 (0.1.x predates the OpenAI server's engine arguments), exact
# to the patch: `pip index versions vllm`.
RELEASES: tuple[str, ...] = (
    "0.2.0",
    "0.2.1.post1",
    "0.2.2",
    "0.2.3",
    "0.2.4",
    "0.2.5",
    "0.2.6",
    "0.2.7",
    "0.3.0",
    "0.3.1",
    "0.3.2",
    "0.3.3",
    "0.4.0",
    "0.4.0.post1",
    "0.4.1",
    "0.4.2",
    "0.4.3",
    "0.5.0",
    "0.5.0.post1",
    "0.5.1",
    "0.5.2",
    "0.5.3",
    "0.5.3.post1",
    "0.5.4",
    "0.5.5",
    "0.6.0",
    "0.6.1",
    "0.6.1.post1",
    "0.6.1.post2",
    "0.6.2",
    "0.6.3",
    "0.6.3.post1",
    "0.6.4",
    "0.6.4.post1",
    "0.6.5",
    "0.6.6",
    "0.6.6.post1",
    "0.7.0",
    "0.7.1",
    "0.7.2",
    "0.7.3",
    "0.8.0",
    "0.8.1",
    "0.8.2",
    "0.8.3",
    "0.8.4",
    "0.8.5",
    "0.8.5.post1",
    "0.9.0",
    "0.9.0.1",
    "0.9.1",
    "0.9.2",
    "0.10.0",
    "0.10.1",
    "0.10.1.1",
    "0.10.2",
    "0.11.0",
    "0.11.1",
    "0.11.2",
    "0.12.0",
    "0.13.0",
    "0.14.0",
    "0.14.1",
    "0.15.0",
    "0.15.1",
    "0.16.0",
    "0.17.0",
    "0.17.1",
    "0.18.0",
    "0.18.1",
    "0.19.0",
    "0.19.1",
    "0.20.0",
    "0.20.1",
    "0.20.2",
    "0.21.0",
    "0.22.0",
    "0.22.1",
    "0.23.0",
    "0.24.0",
    "0.25.0",
    "0.25.1",
    "0.26.0",
    "0.27.0",
    "0.27.1",
    "0.28.0",
    "0.29.0",
    "0.30.0",
    "0.31.0",
    "0.32.0",
    "0.33.0",
    "0.34.0",
)

FORMAT_VERSION = 2  # 2: keyframes whole (`base`), other releases deltas against the next newer


# --------------------------------------------------------------------------
# Symbolic values
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Unknown:
    """A value that cannot be known statically (its source text is kept)."""

    src: str


@dataclass(frozen=True)
class Sym:
    """A named object such as ``int``, ``json.loads`` or ``argparse.SUPPRESS``."""

    name: str


@dataclass(frozen=True)
class TypeFn:
    """An argparse ``type=`` callable, normalised to a catalog type name."""

    kind: str
    nullable: bool = False
    source: str = ""
    # a lambda made of str methods only (``lambda s: s.lower().replace("-", "_")``): the
    # calls in order, so the linter can replay it before it judges ``choices``
    normalize: tuple[tuple[str, ...], ...] = ()


@dataclass
class ParserObj:
    """The parser (or one of its argument groups)."""

    sink: list[ArgRecord]


@dataclass
class SubparsersObj:
    sink: list[ArgRecord]


@dataclass
class ClassRef:
    mod: Module
    node: ast.ClassDef

    @property
    def name(self) -> str:
        return self.node.name

    def __hash__(self) -> int:
        return hash((self.mod.name, self.node.name))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ClassRef)
            and other.mod.name == self.mod.name
            and other.node.name == self.node.name
        )


@dataclass
class FuncRef:
    mod: Module
    node: ast.FunctionDef | ast.AsyncFunctionDef
    owner: ClassRef | None = None  # class the method was found on
    bound: Any = None  # self/cls value
    kind: str = "function"  # function | static | classmethod | method


@dataclass
class SuperRef:
    cls: ClassRef
    bound: Any


@dataclass
class EnumMember:
    name: str
    value: Any


class PartialList(list[Any]):
    """A list of which only some items are known (``[...] + runtime_list``)."""


class FieldKwargs(dict[str, Any]):
    """kwargs of one config field as computed by get_kwargs (with metadata)."""

    def __init__(self, owner: str, fname: str, info: dict[str, Any]):
        super().__init__()
        self.owner = owner
        self.fname = fname
        self.info = info


class KwargsDict(dict[str, Any]):
    """Result of get_kwargs(cls): field name -> FieldKwargs."""


@dataclass
class ArgRecord:
    option_strings: list[str]
    kwargs: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)
    positional: bool = False


class ReturnSignal(Exception):
    def __init__(self, value: Any):
        self.value = value


# --------------------------------------------------------------------------
# Source tree, modules and name resolution
# --------------------------------------------------------------------------


@dataclass
class Binding:
    kind: str  # class | func | assign | import | module
    node: Any = None
    target_mod: str = ""
    target_name: str | None = None
    type_checking: bool = False


class Module:
    def __init__(self, tree: SourceTree, name: str, path: Path):
        self.tree = tree
        self.name = name
        self.path = path
        self.is_pkg = path.name == "__init__.py"
        self.ast = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        self.bindings: dict[str, Binding] = {}
        self._scan(self.ast.body, False)

    def _package(self) -> str:
        return self.name if self.is_pkg else self.name.rpartition(".")[0]

    def _abs(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        base = self._package()
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        return f"{base}.{module}" if module else base

    def _bind(self, name: str, b: Binding) -> None:
        old = self.bindings.get(name)
        if old is not None and not old.type_checking and b.type_checking:
            return
        self.bindings[name] = b

    def _scan(self, body: list[ast.stmt], tc: bool) -> None:
        for st in body:
            if isinstance(st, ast.ClassDef):
                self._bind(st.name, Binding("class", st, type_checking=tc))
            elif isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef):
                self._bind(st.name, Binding("func", st, type_checking=tc))
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        self._bind(t.id, Binding("assign", st.value, type_checking=tc))
            elif isinstance(st, ast.AnnAssign) and st.value is not None:
                if isinstance(st.target, ast.Name):
                    self._bind(st.target.id, Binding("assign", st.value, type_checking=tc))
            elif isinstance(st, ast.ImportFrom):
                src = self._abs(st.module, st.level)
                for a in st.names:
                    if a.name == "*":
                        continue
                    self._bind(
                        a.asname or a.name,
                        Binding("import", None, src, a.name, type_checking=tc),
                    )
            elif isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        self._bind(a.asname, Binding("module", None, a.name, type_checking=tc))
                    else:
                        top = a.name.split(".")[0]
                        self._bind(top, Binding("module", None, top, type_checking=tc))
            elif isinstance(st, ast.If):
                is_tc = "TYPE_CHECKING" in ast.unparse(st.test)
                self._scan(st.body, tc or is_tc)
                self._scan(st.orelse, tc)
            elif isinstance(st, ast.Try):
                self._scan(st.body, tc)
                for h in st.handlers:
                    self._scan(h.body, tc)
                self._scan(st.orelse, tc)
            elif (
                sys.version_info >= (3, 12)
                and isinstance(st, ast.TypeAlias)
                and isinstance(st.name, ast.Name)
            ):
                self._bind(st.name.id, Binding("assign", st.value, type_checking=tc))


class SourceTree:
    def __init__(self, root: Path):
        self.root = root
        self.modules: dict[str, Module | None] = {}
        self._class_index: dict[str, list[tuple[str, str]]] | None = None
        self.enum_lookups: dict[str, list[str]] | None = None  # see _enum_lookups

    def module(self, name: str) -> Module | None:
        if name in self.modules:
            return self.modules[name]
        rel = Path(*name.split("."))
        mod: Module | None = None
        for cand in (self.root / rel.with_suffix(".py"), self.root / rel / "__init__.py"):
            if cand.is_file():
                try:
                    mod = Module(self, name, cand)
                except SyntaxError:
                    mod = None
                break
        self.modules[name] = mod
        return mod

    def class_index(self) -> dict[str, list[tuple[str, str]]]:
        """Fallback: class name -> [(module, name)] over the preferred packages."""
        if self._class_index is None:
            idx: dict[str, list[tuple[str, str]]] = {}
            pri = ["vllm/config", "vllm/engine", "vllm/entrypoints", "vllm/utils"]
            files = sorted(
                (self.root / "vllm").rglob("*.py"),
                key=lambda p: (
                    next(
                        (
                            i
                            for i, s in enumerate(pri)
                            if str(p.relative_to(self.root)).startswith(s)
                        ),
                        len(pri),
                    ),
                    str(p),
                ),
            )
            for p in files:
                rel = p.relative_to(self.root).with_suffix("")
                parts = list(rel.parts)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                modname = ".".join(parts)
                try:
                    text = p.read_text(encoding="utf-8")
                except OSError:
                    continue
                for m in re.finditer(r"^class (\w+)", text, re.M):
                    idx.setdefault(m.group(1), []).append((modname, m.group(1)))
            self._class_index = idx
        return self._class_index

    def resolve(self, modname: str, name: str, depth: int = 0) -> Any:
        """Resolve ``name`` as seen from module ``modname``."""
        if depth > 25:
            return None
        mod = self.module(modname)
        if mod is None:
            return None
        b = mod.bindings.get(name)
        if b is None:
            # maybe a submodule
            sub = self.module(f"{modname}.{name}") if mod.is_pkg else None
            if sub is not None:
                return sub
            return None
        if b.kind == "class":
            return ClassRef(mod, b.node)
        if b.kind == "func":
            return FuncRef(mod, b.node)
        if b.kind == "assign":
            return (mod, b.node)
        if b.kind == "module":
            return self.module(b.target_mod) or Sym(b.target_mod)
        if b.kind == "import":
            tm = self.module(b.target_mod)
            assert b.target_name is not None
            if tm is None:
                return Sym(f"{b.target_mod}.{b.target_name}")
            r = self.resolve(b.target_mod, b.target_name, depth + 1)
            if r is None:
                sub = self.module(f"{b.target_mod}.{b.target_name}")
                if sub is not None:
                    return sub
                return self.fallback_class(b.target_name)
            return r
        return None

    def fallback_class(self, name: str) -> ClassRef | None:
        for modname, cname in self.class_index().get(name, []):
            mod = self.module(modname)
            if mod is not None:
                b = mod.bindings.get(cname)
                if b is not None and b.kind == "class":
                    return ClassRef(mod, b.node)
        return None


# --------------------------------------------------------------------------
# Class helpers: bases, fields, enums, dataclass detection
# --------------------------------------------------------------------------

BUILTIN_NAMES = {
    "int": "int",
    "float": "float",
    "str": "str",
    "bool": "bool",
    "dict": "dict",
    "list": "list",
    "tuple": "tuple",
    "set": "set",
    "bytes": "bytes",
    "Dict": "dict",
    "List": "list",
    "Tuple": "tuple",
    "Set": "set",
    "frozenset": "class",
}


def dotted(node: ast.expr) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover
        return "?"


def resolve_expr_ref(mod: Module, node: ast.expr) -> Any:
    """Resolve a Name/Attribute expression to a ClassRef/FuncRef/Module/Sym."""
    tree = mod.tree
    if isinstance(node, ast.Name):
        if node.id in BUILTIN_NAMES or node.id in {"None", "Any", "object"}:
            return Sym(node.id)
        r = tree.resolve(mod.name, node.id)
        if r is None:
            return Sym(node.id)
        return r
    if isinstance(node, ast.Attribute):
        base = resolve_expr_ref(mod, node.value)
        if isinstance(base, Module):
            r = tree.resolve(base.name, node.attr)
            return r if r is not None else Sym(f"{base.name}.{node.attr}")
        if isinstance(base, Sym):
            return Sym(f"{base.name}.{node.attr}")
        return Sym(dotted(node))
    return Sym(dotted(node))


def class_bases(cref: ClassRef) -> list[Any]:
    out = []
    for b in cref.node.bases:
        if isinstance(b, ast.Subscript):
            b = b.value
        out.append(resolve_expr_ref(cref.mod, b))
    return out


def class_mro(cref: ClassRef, seen: set[tuple[str, str]] | None = None) -> list[ClassRef]:
    seen = seen if seen is not None else set()
    key = (cref.mod.name, cref.name)
    if key in seen:
        return []
    seen.add(key)
    out = [cref]
    for b in class_bases(cref):
        if isinstance(b, ClassRef):
            out.extend(class_mro(b, seen))
    return out


def base_names(cref: ClassRef) -> set[str]:
    names: set[str] = set()
    for c in class_mro(cref):
        for b in c.node.bases:
            names.add(dotted(b.value if isinstance(b, ast.Subscript) else b).split(".")[-1])
    return names


def is_enum(cref: ClassRef) -> bool:
    return bool(base_names(cref) & {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}) or any(
        n.endswith("Enum") and n != cref.name for n in base_names(cref)
    )


def is_dataclass_cls(cref: ClassRef) -> bool:
    for c in class_mro(cref):
        for d in c.node.decorator_list:
            dn = dotted(d.func if isinstance(d, ast.Call) else d).split(".")[-1]
            if dn in {"dataclass", "config", "pydantic_dataclass", "dataclasses"}:
                return True
    return False


def is_basemodel(cref: ClassRef) -> bool:
    return "BaseModel" in base_names(cref)


def is_dict_subclass(cref: ClassRef) -> bool:
    names = base_names(cref)
    return bool(names & {"dict", "Dict", "UserDict"}) and "TypedDict" not in names


def enum_members(cref: ClassRef) -> list[EnumMember]:
    members: list[EnumMember] = []
    auto_i = 0
    for st in cref.node.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(st, ast.Assign):
            targets, value = st.targets, st.value
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            targets, value = [st.target], st.value
        for t in targets:
            if not isinstance(t, ast.Name) or t.id.startswith("_"):
                continue
            assert value is not None
            v: Any
            if isinstance(value, ast.Call) and dotted(value.func).endswith("auto"):
                auto_i += 1
                v = t.id.lower() if "StrEnum" in base_names(cref) else auto_i
            else:
                try:
                    v = ast.literal_eval(value)
                except Exception:
                    v = Unknown(dotted(value))
            members.append(EnumMember(t.id, v))
    return members


def fields_of(cref: ClassRef) -> list[tuple[str, ast.AnnAssign, ClassRef]]:
    """Dataclass fields in ``dataclasses.fields`` order (bases first)."""
    order: list[str] = []
    info: dict[str, tuple[ast.AnnAssign, ClassRef]] = {}
    for c in reversed(class_mro(cref)):
        for st in c.node.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                ann = dotted(st.annotation)
                if "ClassVar" in ann or "InitVar" in ann:
                    continue
                n = st.target.id
                if n not in info:
                    order.append(n)
                info[n] = (st, c)
    return [(n, info[n][0], info[n][1]) for n in order]


# --------------------------------------------------------------------------
# Annotation analysis (a static replica of typing.get_args & co.)
# --------------------------------------------------------------------------


@dataclass
class Hint:
    kind: str  # bool int float str none dict list tuple set literal dataclass enum class
    args: list[Any] = field(default_factory=list)
    cls: ClassRef | None = None
    name: str = ""


def _literal_values(mod: Module, node: ast.expr, depth: int = 0) -> list[Any]:
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    out: list[Any] = []
    for e in elts:
        if isinstance(e, ast.Constant):
            out.append(e.value)
            continue
        hints = analyse_annotation(mod, e, depth + 1)
        for h in hints:
            if h.kind == "literal":
                out.extend(h.args)
            elif h.kind == "none":
                out.append(None)
            elif h.kind == "enum" and h.cls is not None:
                out.append(Unknown(h.name))
            else:
                out.append(Unknown(dotted(e)))
    return out


def analyse_annotation(mod: Module, node: ast.expr | None, depth: int = 0) -> list[Hint]:
    """Flatten a type hint into its union members (like vLLM's get_type_hints)."""
    if node is None or depth > 30:
        return [Hint("class", name="?")]
    if isinstance(node, ast.Constant):
        if node.value is None:
            return [Hint("none")]
        if isinstance(node.value, str):  # forward reference
            try:
                sub = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return [Hint("class", name=node.value)]
            return analyse_annotation(mod, sub, depth + 1)
        return [Hint("class", name=repr(node.value))]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return analyse_annotation(mod, node.left, depth + 1) + analyse_annotation(
            mod, node.right, depth + 1
        )
    if isinstance(node, ast.Subscript):
        head = dotted(node.value).split(".")[-1]
        sl = node.slice
        if head in {"Optional"}:
            return [*analyse_annotation(mod, sl, depth + 1), Hint("none")]
        if head == "Union":
            out: list[Hint] = []
            for e in sl.elts if isinstance(sl, ast.Tuple) else [sl]:
                out += analyse_annotation(mod, e, depth + 1)
            return out
        if head == "Annotated":
            first = sl.elts[0] if isinstance(sl, ast.Tuple) else sl
            return analyse_annotation(mod, first, depth + 1)
        if head == "Literal":
            return [Hint("literal", _literal_values(mod, sl, depth))]
        if head in {"list", "List", "tuple", "Tuple", "set", "Set", "dict", "Dict"}:
            kind = BUILTIN_NAMES[head]
            args = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            return [Hint(kind, [(mod, a) for a in args])]
        # pydantic.SkipValidation[X] is Annotated[X, SkipValidation()] at run time
        if head in {"ClassVar", "Final", "Required", "NotRequired", "SkipValidation"}:
            return analyse_annotation(mod, sl, depth + 1)
        # generic class (Callable[...], Mapping[...], SomeClass[...])
        return analyse_annotation(mod, node.value, depth + 1)
    if isinstance(node, ast.Name | ast.Attribute):
        name = dotted(node)
        short = name.split(".")[-1]
        if short in {"bool", "int", "float", "str"} and name == short:
            return [Hint(short)]
        if name in BUILTIN_NAMES:
            return [Hint(BUILTIN_NAMES[name])]
        if name == "None":
            return [Hint("none")]
        ref = resolve_expr_ref(mod, node)
        if isinstance(ref, ClassRef):
            if is_enum(ref):
                return [Hint("enum", cls=ref, name=ref.name)]
            if is_dataclass_cls(ref):
                return [Hint("dataclass", cls=ref, name=ref.name)]
            if is_dict_subclass(ref):
                return [Hint("dictsub", cls=ref, name=ref.name)]
            return [Hint("class", cls=ref, name=ref.name)]
        if isinstance(ref, tuple):  # an alias assignment
            amod, value = ref
            if isinstance(value, ast.Call):
                fn = dotted(value.func).split(".")[-1]
                if fn == "NewType" and len(value.args) >= 2:
                    return analyse_annotation(amod, value.args[1], depth + 1)
                if fn == "TypeVar":
                    return [Hint("class", name=short)]
                if fn == "TypeAliasType" and len(value.args) >= 2:
                    return analyse_annotation(amod, value.args[1], depth + 1)
                return [Hint("class", name=short)]
            return analyse_annotation(amod, value, depth + 1)
        if isinstance(ref, Sym):
            if ref.name in {"Any", "typing.Any", "object"}:
                return [Hint("class", name=ref.name)]
            return [Hint("class", name=ref.name)]
        return [Hint("class", name=name)]
    return [Hint("class", name=dotted(node))]


# --------------------------------------------------------------------------
# get_kwargs replica
# --------------------------------------------------------------------------


@dataclass
class KwargsProfile:
    """Which branches vLLM's _compute_kwargs has in one release."""

    dataclass_json: bool = False
    optional_value: bool = False  # bool | str | None -> nargs="?"
    json_kvs_fallback: bool = False  # dict fields: optional_type(json.loads) reads `k=v,…` too
    human_ints: frozenset[str] = frozenset()
    int_or_auto: frozenset[str] = frozenset()
    literal_metavar: bool = False
    set_collection: bool = False
    dict_subclass: bool = False
    union_dict_and_str: bool = False
    none_choice: Any = "None"
    literal_collections: bool = False  # list[Literal[...]] -> choices
    source: str = ""


def detect_profile(tree: SourceTree) -> KwargsProfile:
    mod = tree.module("vllm.engine.arg_utils")
    assert mod is not None
    funcs = {n.name: n for n in mod.ast.body if isinstance(n, ast.FunctionDef)}
    fn = funcs.get("_compute_kwargs") or funcs.get("get_kwargs")
    if fn is None:  # before 0.8.5 every flag is an explicit add_argument: no get_kwargs
        return KwargsProfile(source="")
    src = ast.unparse(fn)
    p = KwargsProfile(source=f"vllm/engine/arg_utils.py:{fn.lineno}")
    p.json_kvs_fallback = any(
        name in ("optional_type", "parse_type") and "nullable_kvs(val)" in ast.unparse(node)
        for name, node in funcs.items()
    )
    p.dataclass_json = "is_dataclass" in src
    p.optional_value = "{bool, str, type(None)}" in src
    p.set_collection = "contains_type(type_hints, set)" in src
    p.dict_subclass = "is_dict_subclass" in src
    p.union_dict_and_str = "union_dict_and_str" in src
    lit = funcs.get("literal_to_kwargs")
    p.literal_metavar = lit is not None and "metavar" in ast.unparse(lit)
    p.none_choice = None if "append(None)" in src else "None"
    p.literal_collections = "is Literal" in src
    hr: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Set) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
        ):
            vals = {str(e.value) for e in node.elts if isinstance(e, ast.Constant)}
            if any("token" in v or "max_model_len" in v or "bytes" in v for v in vals):
                hr |= vals
    auto: set[str] = set()
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and node.left.id == "name"
            and len(node.comparators) == 1
            and isinstance(node.comparators[0], ast.Constant)
        ):
            auto.add(str(node.comparators[0].value))
    if "human_readable_int_or_auto" not in src:
        auto = set()
    p.human_ints = frozenset(hr - auto)
    p.int_or_auto = frozenset(auto)
    return p


def literal_default(mod: Module, node: ast.expr | None, depth: int = 0) -> Any:
    """Evaluate a default value expression; Unknown when not a literal."""
    if node is None:
        return Unknown("MISSING")
    try:
        return ast.literal_eval(node)
    except Exception:
        pass
    if isinstance(node, ast.Call):
        fn = dotted(node.func).split(".")[-1]
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if fn in {"field", "Field"}:
            if "default" in kw:
                return literal_default(mod, kw["default"], depth + 1)
            if node.args and fn == "Field":
                return literal_default(mod, node.args[0], depth + 1)
            fac = kw.get("default_factory")
            if fac is not None:
                fname = dotted(fac)
                if fname in {"list", "dict", "set", "tuple"}:
                    return {"list": [], "dict": {}, "set": [], "tuple": []}[fname]
                if isinstance(fac, ast.Lambda):
                    v = literal_default(mod, fac.body, depth + 1)
                    if isinstance(v, tuple | set):
                        v = list(v)
                    return v if not isinstance(v, Unknown) else Unknown("factory")
                return Unknown("factory")
            return Unknown("MISSING")
        if fn in {"int", "float", "str"} and len(node.args) == 1:
            v = literal_default(mod, node.args[0], depth + 1)
            if not isinstance(v, Unknown):
                try:
                    return {"int": int, "float": float, "str": str}[fn](v)
                except (TypeError, ValueError):
                    pass
        return Unknown(dotted(node))
    if isinstance(node, ast.Name | ast.Attribute) and depth < 10:
        ref = resolve_expr_ref(mod, node)
        if isinstance(ref, tuple):
            amod, value = ref
            return literal_default(amod, value, depth + 1)
        if isinstance(node, ast.Attribute):
            base = resolve_expr_ref(mod, node.value)
            if isinstance(base, ClassRef):
                if is_enum(base):
                    for m in enum_members(base):
                        if m.name == node.attr:
                            return m.value
                for c in class_mro(base):
                    for st in c.node.body:
                        if (
                            isinstance(st, ast.AnnAssign | ast.Assign)
                            and isinstance(
                                st.target if isinstance(st, ast.AnnAssign) else st.targets[0],
                                ast.Name,
                            )
                            and getattr(
                                st.target if isinstance(st, ast.AnnAssign) else st.targets[0],
                                "id",
                                None,
                            )
                            == node.attr
                        ):
                            return literal_default(c.mod, st.value, depth + 1)
    if isinstance(node, ast.BinOp):
        left = literal_default(mod, node.left, depth + 1)
        right = literal_default(mod, node.right, depth + 1)
        if not isinstance(left, Unknown) and not isinstance(right, Unknown):
            try:
                ops: dict[type, Any] = {
                    ast.Add: lambda a, b: a + b,
                    ast.Mult: lambda a, b: a * b,
                    ast.Sub: lambda a, b: a - b,
                    ast.Pow: lambda a, b: a**b,
                    ast.LShift: lambda a, b: a << b,
                }
                f = ops.get(type(node.op))
                if f is not None:
                    return f(left, right)
            except Exception:
                pass
    return Unknown(dotted(node))


def _sorted_if_possible(vals: list[Any]) -> list[Any]:
    try:
        return sorted(vals)
    except TypeError:
        return vals


def _has(hints: list[Hint], kind: str) -> bool:
    return any(h.kind == kind for h in hints)


def _collection_elem_type(hint: Hint) -> TypeFn:
    if not hint.args:
        return TypeFn("str")
    amod, anode = hint.args[0]
    sub = analyse_annotation(amod, anode)
    for k in ("int", "float", "bool"):
        if len(sub) == 1 and sub[0].kind == k:
            return TypeFn(k)
    if len(sub) == 1 and sub[0].kind == "literal" and sub[0].args:
        v = sub[0].args[0]
        return TypeFn(type(v).__name__ if isinstance(v, int | float) else "str")
    return TypeFn("str")


def compute_kwargs(cref: ClassRef, profile: KwargsProfile) -> KwargsDict:
    out = KwargsDict()
    for fname, st, owner in fields_of(cref):
        hints = analyse_annotation(owner.mod, st.annotation)
        # subclasses of dict are CLI dicts only where vLLM checks is_dict_subclass
        hints = [
            Hint("dict" if profile.dict_subclass else "class", h.args, h.cls, h.name)
            if h.kind == "dictsub"
            else h
            for h in hints
        ]
        default = literal_default(owner.mod, st.value)
        kw = FieldKwargs(
            cref.name,
            fname,
            {"annotation": dotted(st.annotation), "hints": hints},
        )
        kw["default"] = default
        kinds = {h.kind for h in hints}
        dc = next((h for h in hints if h.kind == "dataclass"), None)
        nullable = "none" in kinds
        if dc is not None and profile.dataclass_json:
            kw["type"] = TypeFn("json")
            kw.info["json_class"] = dc.cls
        elif profile.optional_value and kinds == {"bool", "str", "none"}:
            kw["type"] = TypeFn("str")
            kw["nargs"] = "?"
            kw["const"] = True
        elif "bool" in kinds:
            kw["action"] = Sym("argparse.BooleanOptionalAction")
        elif "literal" in kinds:
            vals: list[Any] = []
            for h in hints:
                if h.kind == "literal":
                    vals.extend(h.args)
            # a Union of several Literals: vLLM takes one of them (set order);
            # statically the union of their values is the honest answer
            vals = list(dict.fromkeys(v for v in vals if not isinstance(v, Unknown)))
            t = type(vals[0]).__name__ if vals else "str"
            key = "metavar" if (profile.literal_metavar and "str" in kinds) else "choices"
            vals = _sorted_if_possible(vals)
            kw["type"] = TypeFn(t if t in {"int", "float", "str"} else "str")
            kw[key] = list(vals)
        elif "tuple" in kinds:
            h = next(h for h in hints if h.kind == "tuple")
            kw["type"] = _collection_elem_type(h)
            n_elts = [
                a for a in h.args if not (isinstance(a[1], ast.Constant) and a[1].value is Ellipsis)
            ]
            kw["nargs"] = "+" if len(n_elts) != len(h.args) else len(h.args)
        elif "list" in kinds:
            h = next(h for h in hints if h.kind == "list")
            kw["type"] = _collection_elem_type(h)
            kw["nargs"] = "+"
        elif "set" in kinds and profile.set_collection:
            h = next(h for h in hints if h.kind == "set")
            kw["type"] = _collection_elem_type(h)
            kw["nargs"] = "+"
        elif "int" in kinds:
            if fname in profile.int_or_auto:
                kw["type"] = TypeFn("int_or_auto")
            elif fname in profile.human_ints:
                kw["type"] = TypeFn("human_int")
            else:
                kw["type"] = TypeFn("int")
        elif "float" in kinds:
            kw["type"] = TypeFn("float")
        elif (
            "dict" in kinds
            and profile.union_dict_and_str
            and ("str" in kinds or kinds & {"class", "enum", "dataclass"})
        ):
            kw["type"] = TypeFn("json_or_str")
        elif "dict" in kinds:
            kw["type"] = TypeFn("json_or_kvs" if profile.json_kvs_fallback else "json")
        else:
            kw["type"] = TypeFn("str")
        if profile.literal_collections and kw.get("nargs") is not None:
            coll = next((h for h in hints if h.kind in {"list", "tuple", "set"}), None)
            if coll is not None and coll.args:
                sub = analyse_annotation(coll.args[0][0], coll.args[0][1])
                if len(sub) == 1 and sub[0].kind == "literal":
                    vals2 = [v for v in sub[0].args if not isinstance(v, Unknown)]
                    vals2 = _sorted_if_possible(vals2)
                    kw["choices"] = vals2
        enum_h = next((h for h in hints if h.kind == "enum"), None)
        if enum_h is not None and enum_h.cls is not None:
            kw.info["enum"] = enum_h.cls
        if nullable and "bool" not in kinds:
            t0 = kw.get("type")
            if isinstance(t0, TypeFn):
                kw["type"] = replace(t0, nullable=True)
            # vLLM appends None (or "None") to the choices; the catalog keeps
            # that information as ``nullable`` instead.
        out[fname] = kw
    return out


# --------------------------------------------------------------------------
# The interpreter
# --------------------------------------------------------------------------

KNOWN_TYPE_FUNCS = {
    "int": "int",
    "float": "float",
    "str": "str",
    "bool": "bool",
    "json.loads": "json",
    "loads": "json",
    "human_readable_int": "human_int",
    "human_readable_int_or_auto": "int_or_auto",
    "union_dict_and_str": "json_or_str",
    # `image=16,video=2` (vllm/engine/arg_utils.py 0.5.5 - 0.8.4); a JSON object is refused
    "nullable_kvs": "kvs",
    "nullable_str": "str",
    "check_port": "port",
    # 0.8.5: KVTransferConfig.from_cli (model_validate_json),
    # CompilationConfig.from_cli (a level 0-3 or a dict), PoolerConfig.from_json
    "from_cli": "json",
    "from_json": "json",
}


# str methods a type lambda may chain that the linter replays (vllm_lint.argv.values.normalized)
REPLAYABLE_STR_METHODS = {"lower": 0, "upper": 0, "strip": 0, "replace": 2}


def str_method_chain(node: ast.Lambda) -> tuple[tuple[str, ...], ...]:
    """``lambda s: s.lower().replace("-", "_")`` -> (("lower",), ("replace", "-", "_")); ()
    for any other lambda (vLLM 0.17+ ``--moe-backend``, vllm/engine/arg_utils.py:1844 in
    0.33: argparse checks ``choices`` against the value the lambda returns)."""
    args = node.args.args
    if len(args) != 1 or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
        return ()
    param = args[0].arg
    calls: list[tuple[str, ...]] = []
    expr: ast.expr = node.body
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        name = expr.func.attr
        if REPLAYABLE_STR_METHODS.get(name) != len(expr.args) or expr.keywords:
            return ()
        if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in expr.args):
            return ()
        calls.append((name, *(str(a.value) for a in expr.args if isinstance(a, ast.Constant))))
        expr = expr.func.value
    if not calls or not (isinstance(expr, ast.Name) and expr.id == param):
        return ()
    return tuple(reversed(calls))


def kvs_fallback(fn: FuncRef, t: TypeFn) -> TypeFn:
    """0.8.5 - 0.9.2: `optional_type(json.loads)` / `parse_type(json.loads)` read a value that
    is not `{...}` with `nullable_kvs` (`return_type is json.loads and not
    re.match("^{.*}$", val)`, vllm/engine/arg_utils.py:58 in 0.8.5): `json_or_kvs`."""
    if t.kind != "json":
        return t
    for node in fn.mod.ast.body:
        if (
            isinstance(node, ast.FunctionDef)
            and node.name in ("optional_type", "parse_type")
            and "nullable_kvs(val)" in ast.unparse(node)
        ):
            return replace(t, kind="json_or_kvs")
    return t


def to_typefn(v: Any, src: str) -> TypeFn:
    """Normalise an argparse ``type=`` value to a :class:`TypeFn`."""
    if isinstance(v, TypeFn):
        return v
    if isinstance(v, ClassRef):
        if is_dataclass_cls(v) or is_basemodel(v):
            return TypeFn("json")
        return TypeFn("custom", source=v.name)
    if isinstance(v, Sym):
        name = v.name.split(".")[-1] if v.name != "json.loads" else "json.loads"
        if v.name in KNOWN_TYPE_FUNCS:
            return TypeFn(KNOWN_TYPE_FUNCS[v.name])
        if name in KNOWN_TYPE_FUNCS:
            return TypeFn(KNOWN_TYPE_FUNCS[name])
        return TypeFn("custom", source=v.name)
    if isinstance(v, FuncRef):
        n = v.node.name
        if n == "nullable_kvs":  # 0.6+: an empty value is None
            return TypeFn("kvs", nullable="len(val) == 0" in ast.unparse(v.node))
        if n in KNOWN_TYPE_FUNCS:
            return TypeFn(KNOWN_TYPE_FUNCS[n])
        return TypeFn("custom", source=n)
    return TypeFn("custom", source=src)


class Interpreter:
    def __init__(self, tree: SourceTree, profile: KwargsProfile):
        self.tree = tree
        self.profile = profile
        self.kwargs_cache: dict[tuple[str, str], KwargsDict] = {}
        self.depth = 0
        # set when a server's `__main__` block is run (releases before `vllm serve`'s
        # ServeSubcommand): `argparse.ArgumentParser(...)` then makes the parser it fills
        self.parser_sink: list[ArgRecord] | None = None

    # -- helpers --------------------------------------------------------
    def get_kwargs(self, cref: ClassRef) -> KwargsDict:
        key = (cref.mod.name, cref.name)
        if key not in self.kwargs_cache:
            self.kwargs_cache[key] = compute_kwargs(cref, self.profile)
        fresh = KwargsDict()
        for fname, fk in self.kwargs_cache[key].items():
            nk = FieldKwargs(fk.owner, fk.fname, fk.info)
            for k, v in fk.items():
                nk[k] = (
                    list(v)
                    if isinstance(v, list)
                    else copy.deepcopy(v)
                    if isinstance(v, dict)
                    else v
                )
            fresh[fname] = nk
        return fresh

    def to_typefn(self, v: Any, src: str) -> TypeFn:
        return to_typefn(v, src)

    # -- expressions ----------------------------------------------------
    def lookup(self, name: str, env: dict[str, Any], mod: Module) -> Any:
        if name in env:
            return env[name]
        if name in {"True", "False", "None"}:
            return {"True": True, "False": False, "None": None}[name]
        if name in {
            "int",
            "float",
            "str",
            "bool",
            "list",
            "dict",
            "set",
            "tuple",
            "sorted",
            "len",
            "super",
        }:
            return Sym(name)
        r = self.tree.resolve(mod.name, name)
        if r is None:
            return Sym(name)
        if isinstance(r, tuple):
            amod, value = r
            v = literal_default(amod, value)
            if not isinstance(v, Unknown):
                return v
            # keep simple callables like X = some_function
            return Unknown(name)
        return r

    def ev(self, node: ast.expr, env: dict[str, Any], mod: Module) -> Any:
        try:
            return self._ev(node, env, mod)
        except ReturnSignal:
            raise
        except Exception:
            return Unknown(dotted(node))

    def _ev(self, node: ast.expr, env: dict[str, Any], mod: Module) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(node.id, env, mod)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            vals: list[Any] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    inner = self.ev(e.value, env, mod)
                    if isinstance(inner, list | tuple):
                        vals.extend(inner)
                    else:
                        return Unknown(dotted(node))
                else:
                    vals.append(self.ev(e, env, mod))
            return tuple(vals) if isinstance(node, ast.Tuple) else vals
        if isinstance(node, ast.Dict):
            d: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values, strict=True):
                if k is None:
                    inner = self.ev(v, env, mod)
                    if isinstance(inner, FieldKwargs):
                        nd = FieldKwargs(inner.owner, inner.fname, inner.info)
                        nd.update(d)
                        nd.update(inner)
                        d = nd
                    elif isinstance(inner, dict):
                        d.update(inner)
                    else:
                        d.setdefault("__unresolved__", []).append(dotted(v))
                else:
                    d[self.ev(k, env, mod)] = self.ev(v, env, mod)
            return d
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                elif isinstance(v, ast.FormattedValue):
                    x = self.ev(v.value, env, mod)
                    if isinstance(x, Unknown | Sym):
                        return Unknown(dotted(node))
                    parts.append(str(x))
            return "".join(parts)
        if isinstance(node, ast.Attribute):
            base = self.ev(node.value, env, mod)
            if isinstance(base, Module):
                r = self.tree.resolve(base.name, node.attr)
                if isinstance(r, tuple):
                    v = literal_default(r[0], r[1])
                    return v if not isinstance(v, Unknown) else Unknown(dotted(node))
                return r if r is not None else Sym(f"{base.name}.{node.attr}")
            if isinstance(base, Sym):
                return Sym(f"{base.name}.{node.attr}")
            if isinstance(base, EnumMember):
                if node.attr == "value":
                    return base.value
                if node.attr == "name":
                    return base.name
            if isinstance(base, ClassRef):
                if is_enum(base):
                    for m in enum_members(base):
                        if m.name == node.attr:
                            return m
                meth = self.find_method(base, node.attr)
                if meth is not None:
                    return meth
                v = literal_default(base.mod, node)
                if not isinstance(v, Unknown):
                    return v
                return Unknown(dotted(node))
            if isinstance(base, SuperRef):
                meth = self.find_method(base.cls, node.attr, skip_self=True)
                if meth is not None:
                    meth.bound = base.bound
                    if meth.kind == "classmethod":
                        pass
                    return meth
                return Unknown(dotted(node))
            if isinstance(base, ParserObj | SubparsersObj | dict | list | str):
                return ("method", base, node.attr)
            return Unknown(dotted(node))
        if isinstance(node, ast.Subscript):
            base = self.ev(node.value, env, mod)
            idx = self.ev(node.slice, env, mod)
            if isinstance(base, dict | list | tuple | str) and not isinstance(idx, Unknown):
                return base[idx]
            return Unknown(dotted(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a = self.ev(node.left, env, mod)
            b = self.ev(node.right, env, mod)
            if isinstance(a, list) and isinstance(b, list | tuple):
                return a + list(b)
            if isinstance(a, tuple) and isinstance(b, tuple):
                return a + b
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            if isinstance(a, list | tuple) and isinstance(b, Unknown):
                # e.g. ["auto", "cpu"] + ([platform] if ... else []) -- keep the known part
                return PartialList(a)
            return Unknown(dotted(node))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = self.ev(node.operand, env, mod)
            return (not v) if isinstance(v, bool) else Unknown(dotted(node))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left = self.ev(node.left, env, mod)
            right = self.ev(node.comparators[0], env, mod)
            op = node.ops[0]
            if (
                isinstance(op, ast.In | ast.NotIn)
                and isinstance(right, dict | list | tuple | str)
                and not isinstance(left, Unknown)
            ):
                r = left in right
                return r if isinstance(op, ast.In) else not r
            return Unknown(dotted(node))
        if isinstance(node, ast.BoolOp):
            vals2 = [self.ev(v, env, mod) for v in node.values]
            if all(isinstance(v, bool) for v in vals2):
                return all(vals2) if isinstance(node.op, ast.And) else any(vals2)
            return Unknown(dotted(node))
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            gen = node.generators[0]
            it = self.ev(gen.iter, env, mod)
            items: list[Any] | None = None
            if isinstance(it, ClassRef) and is_enum(it):
                items = list(enum_members(it))
            elif isinstance(it, list | tuple):
                items = list(it)
            if items is None or gen.ifs or not isinstance(gen.target, ast.Name):
                return Unknown(dotted(node))
            res = []
            for item in items:
                env2 = dict(env)
                env2[gen.target.id] = item
                res.append(self.ev(node.elt, env2, mod))
            return res
        if isinstance(node, ast.Lambda):
            return TypeFn("custom", source=dotted(node), normalize=str_method_chain(node))
        if isinstance(node, ast.Call):
            return self.call(node, env, mod)
        return Unknown(dotted(node))

    def find_method(self, cref: ClassRef, name: str, skip_self: bool = False) -> FuncRef | None:
        mro = class_mro(cref)
        if skip_self:
            mro = mro[1:]
        for c in mro:
            for st in c.node.body:
                if isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef) and st.name == name:
                    decos = {dotted(d) for d in st.decorator_list}
                    kind = (
                        "static"
                        if "staticmethod" in decos
                        else "classmethod"
                        if "classmethod" in decos
                        else "method"
                    )
                    return FuncRef(c.mod, st, owner=c, bound=cref, kind=kind)
        return None

    def call(self, node: ast.Call, env: dict[str, Any], mod: Module) -> Any:
        fn_node = node.func
        # super()
        if isinstance(fn_node, ast.Name) and fn_node.id == "super" and not node.args:
            cur = env.get("__class__")
            if isinstance(cur, ClassRef):
                return SuperRef(cur, env.get("__bound__"))
            return Unknown("super()")
        fn = self.ev(fn_node, env, mod)
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.ev(a.value, env, mod)
                if isinstance(v, list | tuple):
                    args.extend(v)
                else:
                    args.append(Unknown(dotted(a)))
            else:
                args.append(self.ev(a, env, mod))
        kwargs: dict[str, Any] = {}
        unresolved: list[str] = []
        for k in node.keywords:
            if k.arg is None:
                v = self.ev(k.value, env, mod)
                if isinstance(v, dict):
                    if isinstance(v, FieldKwargs):
                        kwargs["__field__"] = v
                    kwargs.update(v)
                else:
                    unresolved.append(dotted(k.value))
            else:
                kwargs[k.arg] = self.ev(k.value, env, mod)
        if unresolved:
            kwargs.setdefault("__unresolved__", []).extend(unresolved)

        if isinstance(fn, tuple) and len(fn) == 3 and fn[0] == "method":
            _, obj, meth = fn
            return self.call_method(obj, meth, args, kwargs, node, mod)
        if self.parser_sink is not None and isinstance(fn, Sym | ClassRef | FuncRef):
            called = fn.name if isinstance(fn, Sym | ClassRef) else fn.node.name
            called = called.split(".")[-1]
            if called in PARSER_CLASSES:
                return ParserObj(self.parser_sink)
            if called in PARSER_BUILDERS and isinstance(fn, FuncRef):
                return self.run_function(fn, args, kwargs)
        if isinstance(fn, Sym):
            name = fn.name.split(".")[-1]
            if name == "get_kwargs" and args and isinstance(args[0], ClassRef):
                return self.get_kwargs(args[0])
            if name == "optional_type" and args:
                t = self.to_typefn(args[0], dotted(node.args[0]))
                return replace(t, nullable=True)
            if name == "parse_type" and args:
                return self.to_typefn(args[0], dotted(node.args[0]))
            if name in {"get_args"} and args:
                return self.get_args_of(node.args[0], mod)
            if (
                name in {"list", "sorted", "tuple"}
                and len(args) == 1
                and isinstance(args[0], list | tuple)
            ):
                r = list(args[0])
                return sorted(r, key=repr) if name == "sorted" else r
            if name == "dict" and not args:
                return dict(kwargs)
            return Unknown(dotted(node))
        if isinstance(fn, FuncRef):
            name = fn.node.name
            if name == "get_kwargs" and args and isinstance(args[0], ClassRef):
                return self.get_kwargs(args[0])
            if name == "optional_type" and args:
                t = kvs_fallback(fn, self.to_typefn(args[0], dotted(node.args[0])))
                return replace(t, nullable=True)
            if name == "parse_type" and args:
                return kvs_fallback(fn, self.to_typefn(args[0], dotted(node.args[0])))
            # follow functions that get the parser or a kwargs dict
            interesting = any(
                isinstance(a, ParserObj | SubparsersObj | KwargsDict)
                for a in list(args) + list(kwargs.values())
            )
            if interesting:
                return self.run_function(fn, args, kwargs)
            return Unknown(dotted(node))
        return Unknown(dotted(node))

    def get_args_of(self, node: ast.expr, mod: Module) -> Any:
        hints = analyse_annotation(mod, node)
        vals: list[Any] = []
        for h in hints:
            if h.kind == "literal":
                vals.extend(h.args)
            else:
                return Unknown(f"get_args({dotted(node)})")
        return tuple(vals)

    def call_method(
        self,
        obj: Any,
        meth: str,
        args: list[Any],
        kwargs: dict[str, Any],
        node: ast.Call,
        mod: Module,
    ) -> Any:
        if isinstance(obj, SubparsersObj) and meth == "add_parser":
            return ParserObj(obj.sink)
        if isinstance(obj, ParserObj):
            if meth in {"add_argument_group", "add_mutually_exclusive_group"}:
                return ParserObj(obj.sink)
            if meth == "add_argument":
                self.record(obj, args, kwargs, node, mod)
                return Unknown("action")
            if meth == "add_subparsers":
                return SubparsersObj(obj.sink)
            return Unknown(dotted(node))
        if isinstance(obj, dict):
            if meth == "pop":
                key = args[0] if args else None
                return obj.pop(key, args[1] if len(args) > 1 else None)
            if meth == "get":
                return obj.get(args[0], args[1] if len(args) > 1 else None)
            if meth == "items":
                return list(obj.items())
            if meth == "keys":
                return list(obj.keys())
            if meth == "values":
                return list(obj.values())
            if meth == "update":
                if args and isinstance(args[0], dict):
                    obj.update(args[0])
                obj.update({k: v for k, v in kwargs.items() if not k.startswith("__")})
                return None
            if meth == "setdefault":
                return obj.setdefault(args[0], args[1] if len(args) > 1 else None)
            if meth == "copy":
                return copy.copy(obj)
        if isinstance(obj, list):
            if meth == "remove" and args:
                if args[0] in obj:
                    obj.remove(args[0])
                elif isinstance(args[0], Unknown | EnumMember | Sym):
                    obj.append(("__removed__", args[0]))
                return None
            if meth == "append" and args:
                obj.append(args[0])
                return None
            if meth == "extend" and args and isinstance(args[0], list | tuple):
                obj.extend(args[0])
                return None
            if meth == "copy":
                return list(obj)
        if isinstance(obj, str):
            if meth == "replace" and len(args) == 2 and all(isinstance(a, str) for a in args):
                return obj.replace(args[0], args[1])
            if meth in {"lower", "upper", "strip"}:
                return getattr(obj, meth)()
            if meth == "removeprefix" and args and isinstance(args[0], str):
                return obj.removeprefix(args[0])
        return Unknown(dotted(node))

    def record(
        self,
        parser: ParserObj,
        args: list[Any],
        kwargs: dict[str, Any],
        node: ast.Call,
        mod: Module,
    ) -> None:
        opts = [a for a in args if isinstance(a, str)]
        unresolved_opts = [a for a in args if not isinstance(a, str)]
        rec = ArgRecord(
            option_strings=opts,
            kwargs=kwargs,
            meta={"source": f"{mod.path.relative_to(self.tree.root)}:{node.lineno}"},
        )
        if unresolved_opts:
            rec.meta["unresolved_options"] = [repr(a) for a in unresolved_opts]
        rec.positional = bool(opts) and not opts[0].startswith("-")
        parser.sink.append(rec)

    # -- statements -----------------------------------------------------
    def run_function(self, fn: FuncRef, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if self.depth > 20:
            return None
        self.depth += 1
        try:
            env: dict[str, Any] = {}
            params = [a.arg for a in fn.node.args.posonlyargs + fn.node.args.args]
            if fn.kind in {"classmethod", "method"} and params:
                env[params[0]] = fn.bound if fn.bound is not None else fn.owner
                params = params[1:]
            for p, v in zip(params, args, strict=False):
                env[p] = v
            for k, v in kwargs.items():
                env[k] = v
            # defaults
            defaults = fn.node.args.defaults
            pos = fn.node.args.posonlyargs + fn.node.args.args
            for a, d in zip(pos[len(pos) - len(defaults) :], defaults, strict=False):
                if a.arg not in env:
                    env[a.arg] = self.ev(d, {}, fn.mod)
            if fn.owner is not None:
                env["__class__"] = fn.owner
                env["__bound__"] = fn.bound
            try:
                self.exec_body(fn.node.body, env, fn.mod, top=True)
            except ReturnSignal as r:
                return r.value
            return None
        finally:
            self.depth -= 1

    def assign(self, target: ast.expr, value: Any, env: dict[str, Any], mod: Module) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, ast.Subscript):
            obj = self.ev(target.value, env, mod)
            key = self.ev(target.slice, env, mod)
            if isinstance(obj, dict) and not isinstance(key, Unknown):
                if key == "type":
                    value = self.to_typefn(value, "")
                obj[key] = value
        elif isinstance(target, ast.Tuple | ast.List):
            if isinstance(value, tuple | list) and len(value) == len(target.elts):
                for t, v in zip(target.elts, value, strict=True):
                    self.assign(t, v, env, mod)
            else:
                for t in target.elts:
                    self.assign(t, Unknown("?"), env, mod)

    def exec_body(
        self, body: list[ast.stmt], env: dict[str, Any], mod: Module, top: bool = False
    ) -> None:
        for st in body:
            self.exec_stmt(st, env, mod, top)

    def exec_stmt(self, st: ast.stmt, env: dict[str, Any], mod: Module, top: bool) -> None:
        if isinstance(st, ast.Expr):
            self.ev(st.value, env, mod)
        elif isinstance(st, ast.Assign):
            v = self.ev(st.value, env, mod)
            for t in st.targets:
                self.assign(t, v, env, mod)
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            self.assign(st.target, self.ev(st.value, env, mod), env, mod)
        elif isinstance(st, ast.AugAssign):
            pass  # help += ...
        elif isinstance(st, ast.Delete):
            for t in st.targets:
                if isinstance(t, ast.Subscript):
                    obj = self.ev(t.value, env, mod)
                    key = self.ev(t.slice, env, mod)
                    if isinstance(obj, dict) and key in obj:
                        del obj[key]
        elif isinstance(st, ast.If):
            test = self.ev(st.test, env, mod)
            if test is True:
                self.exec_body(st.body, env, mod)
            elif test is False:
                self.exec_body(st.orelse, env, mod)
            else:
                self.exec_body(st.body, env, mod)
                self.exec_body(st.orelse, env, mod)
        elif isinstance(st, ast.For):
            it = self.ev(st.iter, env, mod)
            if isinstance(it, list | tuple):
                for item in it:
                    self.assign(st.target, item, env, mod)
                    self.exec_body(st.body, env, mod)
        elif isinstance(st, ast.With):
            self.exec_body(st.body, env, mod)
        elif isinstance(st, ast.Try):
            self.exec_body(st.body, env, mod)
            self.exec_body(st.orelse, env, mod)
            self.exec_body(st.finalbody, env, mod)
        elif isinstance(st, ast.Return):
            v = self.ev(st.value, env, mod) if st.value is not None else None
            if top:
                raise ReturnSignal(v)
            env.setdefault("__returns__", []).append(v)
        elif isinstance(st, ast.FunctionDef):
            env[st.name] = Unknown(st.name)


# --------------------------------------------------------------------------
# Records -> catalog
# --------------------------------------------------------------------------


def _jsonable(v: Any) -> tuple[bool, Any]:
    if v is None or isinstance(v, bool | int | float | str):
        return True, v
    if isinstance(v, list | tuple):
        out = []
        for x in v:
            ok, y = _jsonable(x)
            if not ok:
                return False, None
            out.append(y)
        return True, out
    if isinstance(v, dict) and not isinstance(v, FieldKwargs):
        outd = {}
        for k, x in v.items():
            ok, y = _jsonable(x)
            if not ok or not isinstance(k, str):
                return False, None
            outd[k] = y
        return True, outd
    if isinstance(v, EnumMember):
        return _jsonable(v.value)
    return False, None


def json_keys_of(cref: ClassRef) -> list[str]:
    if is_dataclass_cls(cref) or is_basemodel(cref):
        return [n for n, _, _ in fields_of(cref)]
    return []


# --------------------------------------------------------------------------
# How vLLM validates a value after argparse: unknown JSON keys, enum members
# --------------------------------------------------------------------------


def _extra_setting(node: ast.expr | None) -> str | None:
    """``ConfigDict(extra="forbid")`` (or a dict literal) -> "forbid"."""
    if isinstance(node, ast.Call):
        for kw in node.keywords:
            if kw.arg == "extra" and isinstance(kw.value, ast.Constant):
                return str(kw.value.value)
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=False):
            if isinstance(k, ast.Constant) and k.value == "extra" and isinstance(v, ast.Constant):
                return str(v.value)
    return None


def _decorator_forbids(cref: ClassRef, name: str) -> bool:
    """Whether the release's own ``@config`` decorator makes extra keys an error
    (vllm/config/utils.py from 0.16: ``merged_config = ConfigDict(extra="forbid")``)."""
    target = cref.mod.tree.resolve(cref.mod.name, name)
    if not isinstance(target, FuncRef):
        return False
    return any(
        isinstance(n, ast.Call) and _extra_setting(n) == "forbid" for n in ast.walk(target.node)
    )


def json_extra_of(cref: ClassRef) -> str:
    """`forbid` when pydantic rejects a key the class lacks ("Unexpected keyword argument"),
    `ignore` when it drops it silently: the default of pydantic dataclasses and models,
    so a misspelt key there simply has no effect."""
    for d in cref.node.decorator_list:
        fn = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Call):
            for kw in d.keywords:
                explicit = _extra_setting(kw.value) if kw.arg == "config" else None
                if explicit:
                    return explicit
        if dotted(fn).split(".")[-1] == "config" and _decorator_forbids(cref, "config"):
            return "forbid"
    for st in cref.node.body:
        target = st.targets[0] if isinstance(st, ast.Assign) else getattr(st, "target", None)
        if isinstance(target, ast.Name) and target.id == "model_config":
            explicit = _extra_setting(getattr(st, "value", None))
            if explicit:
                return explicit
    return "ignore"


def _pydantic_validated(cref: ClassRef) -> bool:
    """Whether pydantic validates the class's fields when vLLM builds it: a BaseModel, a
    ``pydantic.dataclasses.dataclass``, or vLLM's own ``@config`` that makes one (0.16+)."""
    if is_basemodel(cref):
        return True
    for d in cref.node.decorator_list:
        fn = d.func if isinstance(d, ast.Call) else d
        short = dotted(fn).split(".")[-1]
        binding = cref.mod.bindings.get(dotted(fn).split(".")[0])
        if (
            short == "dataclass"
            and binding is not None
            and binding.kind == "import"
            and binding.target_mod == "pydantic.dataclasses"
        ):
            return True
        if short == "config" and _decorator_forbids(cref, "config"):
            return True
    return False


def _validators_before(cref: ClassRef) -> tuple[set[str], bool]:
    """(fields with a ``mode="before"``/``"wrap"`` field validator, whether a
    ``mode="before"``/``"wrap"`` model validator exists) over the class and its bases:
    such a validator may turn a value the Literal lacks into one it has."""
    names: set[str] = set()
    model_level = False
    for c in class_mro(cref):
        for st in c.node.body:
            if not isinstance(st, ast.FunctionDef):
                continue
            for d in st.decorator_list:
                if not isinstance(d, ast.Call):
                    continue
                kind = dotted(d.func).split(".")[-1]
                modes = [
                    k.value.value
                    for k in d.keywords
                    if k.arg == "mode" and isinstance(k.value, ast.Constant)
                ]
                early = any(m in ("before", "wrap", "plain") for m in modes)
                if kind == "field_validator" and early:
                    names.update(str(a.value) for a in d.args if isinstance(a, ast.Constant))
                if kind == "model_validator" and early:
                    model_level = True
    return names, model_level


def json_literals_of(cref: ClassRef) -> dict[str, list[Any]]:
    """Key -> the values pydantic accepts, for the fields of a JSON flag's class whose type
    is a ``Literal`` (or ``Literal | None``: null among the values). Pydantic refuses any
    other value with "<key>: Input should be 'a', 'b' or 'c'" (0.28.0:
    SpeculativeConfig.rejection_sample_method, raised from vllm/engine/arg_utils.py:1869).
    Fields a "before" validator may rewrite are left out, and classes pydantic does not
    validate give {}."""
    if not _pydantic_validated(cref):
        return {}
    early, model_level = _validators_before(cref)
    if model_level:
        return {}
    out: dict[str, list[Any]] = {}
    for name, ann, owner in fields_of(cref):
        if name in early or "SkipValidation" in ast.unparse(ann.annotation):
            continue
        hints = analyse_annotation(owner.mod, ann.annotation)
        if not hints or any(h.kind not in ("literal", "none") for h in hints):
            continue
        values: list[Any] = []
        for h in hints:
            values.extend(h.args if h.kind == "literal" else [None])
        if not any(v is not None for v in values):
            continue
        if all(v is None or isinstance(v, str | int | bool) for v in values):
            out[name] = list(dict.fromkeys(values))
    return out


# Config classes that vLLM creates only for some models: a value validated there is
# not checked for other models (0.33.0 oracle: `--mm-encoder-attn-backend bogus` is
# accepted for a text-only Llama; MultiModalConfig validates it for multimodal ones).
MODEL_DEPENDENT_CONFIGS = frozenset({"MultiModalConfig"})


def _enum_lookups(tree: SourceTree) -> dict[str, list[str]]:
    """Enum class name -> extra accepted words, for every ``Enum[<x>.upper()]`` lookup
    in vllm/config and vllm/engine/arg_utils.py (member *names*, any case).

    An extra word is one the same function returns early for before the lookup, such as
    ``if value.lower() == "auto": return None`` (AttentionConfig.backend from 0.18)."""
    found: dict[str, list[str]] = {}
    files = sorted((tree.root / "vllm" / "config").glob("*.py"))
    files += [tree.root / "vllm" / "engine" / "arg_utils.py", tree.root / "vllm" / "config.py"]
    for path in files:
        if not path.is_file():
            continue
        module = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(module):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                if not (
                    isinstance(node, ast.Subscript)
                    and isinstance(node.slice, ast.Call)
                    and isinstance(node.slice.func, ast.Attribute)
                    and node.slice.func.attr == "upper"
                ):
                    continue
                extras = found.setdefault(dotted(node.value).split(".")[-1], [])
                for test in ast.walk(func):
                    if (
                        isinstance(test, ast.If)
                        and isinstance(test.test, ast.Compare)
                        and isinstance(test.test.left, ast.Call)
                        and isinstance(test.test.left.func, ast.Attribute)
                        and test.test.left.func.attr == "lower"
                        and len(test.test.comparators) == 1
                        and isinstance(test.test.comparators[0], ast.Constant)
                        and any(isinstance(s, ast.Return) for s in test.body)
                    ):
                        word = str(test.test.comparators[0].value)
                        if word not in extras:
                            extras.append(word)
    return found


def enum_match_of(tree: SourceTree, enum_cls: ClassRef, owner: str) -> dict[str, Any]:
    """How vLLM checks a str given to an Enum-typed flag, or {} when it is not checked
    for every model: ``name_upper`` (``Enum[value.upper()]``: member names, any case) or
    ``value`` (an IntEnum field of a pydantic config: the member values as written)."""
    if owner in MODEL_DEPENDENT_CONFIGS:
        return {}
    if tree.enum_lookups is None:
        tree.enum_lookups = _enum_lookups(tree)
    cache = tree.enum_lookups
    if enum_cls.name in cache:
        out: dict[str, Any] = {"enum_match": "name_upper"}
        if cache[enum_cls.name]:
            out["enum_extra"] = sorted(cache[enum_cls.name])
        return out
    if "IntEnum" in base_names(enum_cls):
        return {"enum_match": "value"}
    return {}


def build_record(rec: ArgRecord, enable_disable: bool) -> tuple[str, dict[str, Any]]:
    kw = rec.kwargs
    fk: FieldKwargs | None = kw.get("__field__")
    longs = [o for o in rec.option_strings if o.startswith("--")]
    name = longs[0] if longs else rec.option_strings[0]
    aliases = [o for o in rec.option_strings if o != name]
    out: dict[str, Any] = {}
    if aliases:
        out["aliases"] = aliases
    action = kw.get("action")
    action_name = ""
    if isinstance(action, str):
        action_name = action
    elif isinstance(action, Sym):
        action_name = action.name.split(".")[-1]
    elif isinstance(action, ClassRef):
        action_name = action.name
        if "BooleanOptionalAction" in base_names(action):
            action_name = "BooleanOptionalAction"
    elif action is not None:
        action_name = "unresolved"
    is_bool = action_name in {"store_true", "store_false", "BooleanOptionalAction", "StoreBoolean"}
    if is_bool:
        out["is_bool"] = True
        out["type"] = "bool"
    if action_name == "BooleanOptionalAction":
        negs: list[str] = []
        for o in rec.option_strings:
            if o.startswith("--"):
                negs.append("--no-" + o[2:])
        if enable_disable:
            for o in rec.option_strings:
                for pre, inv in (("--enable-", "--disable-"), ("--disable-", "--enable-")):
                    if o.startswith(pre):
                        negs.append(inv + o.removeprefix(pre))
        out["negations"] = negs
    elif action_name and action_name not in {
        "store_true",
        "store_false",
        "store",
        "BooleanOptionalAction",
    }:
        out["action"] = action_name
    if "nargs" in kw:
        n = kw["nargs"]
        out["nargs"] = n if isinstance(n, str) or n is None else str(n)
    if kw.get("const") is True and out.get("nargs") == "?":
        out["action"] = "optional-value"
    if not is_bool:
        t = kw.get("type")
        if t is None:
            out["type"] = "str"
        elif isinstance(t, TypeFn):
            out["type"] = t.kind
            if t.nullable:
                out["nullable"] = True
            if t.kind == "custom":
                out["type_source"] = t.source
                if t.normalize:
                    out["normalize"] = [list(call) for call in t.normalize]
        else:
            tf = to_typefn(t, "")
            out["type"] = tf.kind
            if tf.nullable:
                out["nullable"] = True
            if tf.kind == "custom":
                out["type_source"] = tf.source
        if action_name == "append":
            out["action"] = "append"
    for key, dest in (("choices", "choices"), ("metavar", "suggested")):
        v = kw.get(key)
        if isinstance(v, PartialList):
            ok, j = _jsonable(list(v))
            if ok:
                out["suggested"] = j
            out["choices_dynamic"] = True
        elif isinstance(v, list | tuple):
            removed = [
                x[1] for x in v if isinstance(x, tuple) and len(x) == 2 and x[0] == "__removed__"
            ]
            vals = [
                x for x in v if not (isinstance(x, tuple) and len(x) == 2 and x[0] == "__removed__")
            ]
            ok, j = _jsonable(vals)
            if ok and not removed:
                out[dest] = j
            elif key == "choices":
                out["choices_dynamic"] = True
        elif key == "choices" and v is not None:
            out["choices_dynamic"] = True
    if "default" in kw:
        ok, j = _jsonable(kw["default"])
        if ok:
            out["default"] = j
    elif not is_bool or action_name in {"store_true", "store_false"}:
        if action_name == "store_true":
            out["default"] = False
        elif action_name == "store_false":
            out["default"] = True
        else:
            out["default"] = None
    dep = kw.get("deprecated")
    help_text = kw.get("help")
    if dep:
        out["deprecated"] = (
            help_text if isinstance(help_text, str) and "deprecat" in help_text.lower() else True
        )
    elif isinstance(help_text, str) and re.search(
        r"\bis deprecated\b|^\s*\[?deprecated", help_text, re.I
    ):
        out["deprecated"] = help_text
    elif "Deprecated" in action_name:
        out["deprecated"] = help_text if isinstance(help_text, str) else True
    if fk is not None:
        out["config_field"] = f"{fk.owner}.{fk.fname}"
        enum_cls = fk.info.get("enum")
        if isinstance(enum_cls, ClassRef):
            members = enum_members(enum_cls)
            ok, vals = _jsonable([m.value for m in members])
            if ok:
                out["enum_values"] = vals
            out["enum_names"] = [m.name for m in members]
            out.update(enum_match_of(enum_cls.mod.tree, enum_cls, fk.owner))
        jc = fk.info.get("json_class")
        if jc is None:
            for h in fk.info.get("hints", []):
                if h.kind == "dataclass" and h.cls is not None:
                    jc = h.cls
        if isinstance(jc, ClassRef) and out.get("type") == "json":
            keys = json_keys_of(jc)
            if keys:
                out["json_keys"] = sorted(keys)
                out["json_extra"] = json_extra_of(jc)
                literals = json_literals_of(jc)
                if literals:
                    out["json_literals"] = dict(sorted(literals.items()))
    if kw.get("__unresolved__"):
        out["unresolved"] = sorted(set(kw["__unresolved__"]))
    return name, out


# --------------------------------------------------------------------------
# Choices that vLLM checks when it builds its config, from a module-level registry
# --------------------------------------------------------------------------

# flag -> (module, registry list, config field): the registry is `list(get_args(<Literal>))`
# and the field's own validation refuses a name it lacks ("Unknown quantization method: x.
# Must be one of [...]", ModelConfig._verify_quantization: vllm/config/model.py:1282 in
# 0.28, :1466 in 0.33; vllm/config.py:825 in 0.8.5).
CONFIG_REGISTRIES = {
    "--quantization": (
        "vllm.model_executor.layers.quantization",
        "QUANTIZATION_METHODS",
        "quantization",
    ),
}


def registry_values(tree: SourceTree, module: str, name: str) -> list[str] | None:
    """The strings of ``NAME = list(get_args(SomeLiteral))`` in ``module``; None when the
    registry is anything else (then the linter must not judge the value)."""
    mod = tree.module(module)
    binding = mod.bindings.get(name) if mod is not None else None
    if mod is None or binding is None or binding.kind != "assign":
        return None
    value = binding.node
    if not (
        isinstance(value, ast.Call)
        and dotted(value.func) == "list"
        and len(value.args) == 1
        and isinstance(value.args[0], ast.Call)
        and dotted(value.args[0].func).split(".")[-1] == "get_args"
        and len(value.args[0].args) == 1
    ):
        return None
    hints = analyse_annotation(mod, value.args[0].args[0])
    if len(hints) != 1 or hints[0].kind != "literal":
        return None
    values = hints[0].args
    if not values or not all(isinstance(v, str) for v in values):
        return None
    return list(values)


def lowercases_before(tree: SourceTree, field_name: str) -> bool:
    """Whether a ``@field_validator("<field>", mode="before")`` of vllm/config lower-cases
    a str value (ModelConfig.validate_quantization_before, 0.9+)."""
    files = sorted((tree.root / "vllm" / "config").glob("*.py"))
    files.append(tree.root / "vllm" / "config.py")
    for path in files:
        if not path.is_file():
            continue
        for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(func, ast.FunctionDef):
                continue
            validates = any(
                isinstance(d, ast.Call)
                and dotted(d.func).split(".")[-1] == "field_validator"
                and any(isinstance(a, ast.Constant) and a.value == field_name for a in d.args)
                and any(
                    k.arg == "mode"
                    and isinstance(k.value, ast.Constant)
                    and k.value.value == "before"
                    for k in d.keywords
                )
                for d in func.decorator_list
            )
            lowers = any(
                isinstance(n, ast.Return)
                and isinstance(n.value, ast.Call)
                and isinstance(n.value.func, ast.Attribute)
                and n.value.func.attr == "lower"
                for n in ast.walk(func)
            )
            if validates and lowers:
                return True
    return False


def add_config_choices(tree: SourceTree, flags: dict[str, dict[str, Any]]) -> None:
    for flag, (module, name, field_name) in CONFIG_REGISTRIES.items():
        record = flags.get(flag)
        values = registry_values(tree, module, name) if record is not None else None
        if record is None or values is None:
            continue
        record["config_choices"] = values
        if lowercases_before(tree, field_name):
            record["config_choices_lower"] = True


def interpret_serve(tree: SourceTree) -> tuple[Interpreter, list[ArgRecord]]:
    """Run ``ServeSubcommand.subparser_init`` symbolically: the interpreter (its
    ``kwargs_cache`` holds every config class ``get_kwargs`` read) and the
    ``add_argument`` records in order. tools/mine_validation.py reuses it."""
    profile = detect_profile(tree)
    interp = Interpreter(tree, profile)
    serve = tree.module("vllm.entrypoints.cli.serve")
    if serve is None:
        raise RuntimeError(f"{tree.root}: vllm/entrypoints/cli/serve.py not found")
    cls = next(
        (
            ClassRef(serve, n)
            for n in serve.ast.body
            if isinstance(n, ast.ClassDef)
            and any(isinstance(f, ast.FunctionDef) and f.name == "subparser_init" for f in n.body)
        ),
        None,
    )
    if cls is None:
        raise RuntimeError("ServeSubcommand.subparser_init not found")
    meth = interp.find_method(cls, "subparser_init")
    assert meth is not None
    sink: list[ArgRecord] = []
    meth.bound = Unknown("self")
    interp.run_function(meth, [SubparsersObj(sink)], {})
    return interp, sink


# Releases before ServeSubcommand (0.2 - 0.8.x without vllm/entrypoints/cli/serve.py): the
# OpenAI server's `if __name__ == "__main__":` block builds the parser itself (0.2, 0.3:
# `argparse.ArgumentParser` + `AsyncEngineArgs.add_cli_args`), through `parse_args()` (0.3.x)
# or `make_arg_parser()` in vllm/entrypoints/openai/cli_args.py (0.4+, taking the parser from
# 0.6); `vllm serve` (vllm/scripts.py, 0.5.2 - 0.7.x) hands its subparser to the same
# make_arg_parser and adds the positional `model_tag`.
PARSER_CLASSES = frozenset({"ArgumentParser", "FlexibleArgumentParser"})
PARSER_BUILDERS = frozenset({"parse_args", "make_arg_parser"})
OPENAI_SERVER = "vllm.entrypoints.openai.api_server"


def main_block(mod: Module) -> ast.If | None:
    """The module's top-level `if __name__ == "__main__":`."""
    for st in mod.ast.body:
        if isinstance(st, ast.If) and "__main__" in ast.unparse(st.test):
            return st
    return None


def interpret_server_main(tree: SourceTree) -> tuple[Interpreter, list[ArgRecord]]:
    """Run the OpenAI server's `__main__` block symbolically (releases without
    ServeSubcommand): the interpreter and the `add_argument` records in order."""
    mod = tree.module(OPENAI_SERVER)
    block = main_block(mod) if mod is not None else None
    if mod is None or block is None:
        raise RuntimeError(f"{tree.root}: no __main__ block in {OPENAI_SERVER}")
    interp = Interpreter(tree, detect_profile(tree))
    sink: list[ArgRecord] = []
    interp.parser_sink = sink
    interp.exec_body(block.body, {}, mod)
    return interp, sink


def interpret_parser(tree: SourceTree) -> tuple[Interpreter, list[ArgRecord]]:
    """The `serve` parser where the release has ServeSubcommand, else the OpenAI server's."""
    if tree.module("vllm.entrypoints.cli.serve") is not None:
        return interpret_serve(tree)
    return interpret_server_main(tree)


def legacy_serve_positional(root: Path) -> list[str]:
    """`vllm serve <model_tag>` of vllm/scripts.py (0.5.2 - 0.7.x), else none."""
    path = root / "vllm" / "scripts.py"
    if path.is_file() and re.search(r"add_argument\(\s*[\"']model_tag[\"']", path.read_text()):
        return ["model_tag"]
    return []


def records_of(sink: list[ArgRecord], enable_disable: bool) -> tuple[dict[str, Any], list[str]]:
    """A parser's options as catalog records by name, and its positional arguments."""
    flags: dict[str, Any] = {}
    positional: list[str] = []
    for rec in sink:
        if not rec.option_strings:
            continue
        if rec.positional:
            if rec.option_strings[0] not in positional:
                positional.append(rec.option_strings[0])
            continue
        name, out = build_record(rec, enable_disable)
        if name in flags:  # the same flag in two branches of an `if`: merge the aliases
            aliases = sorted({*flags[name].get("aliases", []), *out.get("aliases", [])})
            if aliases:
                flags[name]["aliases"] = aliases
            continue
        flags[name] = out
    return flags, positional


def extract_release(root: Path, minor: str = "") -> dict[str, Any]:
    tree = SourceTree(root)
    legacy = tree.module("vllm.entrypoints.cli.serve") is None
    _, sink = interpret_parser(tree)
    features = read_parser_features(tree)
    enable_disable = bool(features.get("enable_disable_pairing"))
    flags, positional = records_of(sink, enable_disable)
    if legacy:
        positional = legacy_serve_positional(root)
    add_config_choices(tree, flags)
    features["spec_shortcuts"] = "--spec-method" in flags
    features.update(HAND_VERIFIED_FEATURES.get(minor, {}))
    return {
        "flags": flags,
        "positional": positional,
        "parser_features": features,
        "entrypoints": extract_entrypoints(root),
    }


# The server's entry points: `python -m <module>` runs a module only when it has a
# `__main__` block (vllm/entrypoints/api_server.py, the demo server, is gone from 0.25);
# `vllm … --omni` hands the whole command line to vllm-omni's own CLI from 0.30
# (vllm/entrypoints/cli/main.py: `maybe_run_omni`).
SERVER_MODULES = (
    "vllm.entrypoints.openai.api_server",
    "vllm.entrypoints.api_server",
    "vllm.entrypoints.cli.main",
)


def extract_entrypoints(root: Path) -> dict[str, str]:
    """Entry point → the `file:line` that makes it one, for each one this release has."""
    found: dict[str, str] = {}
    for module in SERVER_MODULES:
        rel = module.replace(".", "/") + ".py"
        path = root / rel
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"if __name__ == [\"']__main__[\"']:", line):
                found[module] = f"{rel}:{number}"
                break
    # the `vllm` command's `serve`: ServeSubcommand (vllm/entrypoints/cli/serve.py, 0.7.3+),
    # before it `subparsers.add_parser("serve", …)` in vllm/scripts.py (0.5.2 - 0.7.2); none
    # before 0.5.2 (no `vllm` command)
    for rel in ("vllm/entrypoints/cli/serve.py", "vllm/scripts.py"):
        path = root / rel
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            number = next((n for n, line in enumerate(lines, 1) if '"serve"' in line), 0)
            if number:
                found["vllm serve"] = f"{rel}:{number}"
                break
    main = root / "vllm/entrypoints/cli/main.py"
    if main.is_file():
        for number, line in enumerate(main.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("def maybe_run_omni"):
                found["--omni"] = f"vllm/entrypoints/cli/main.py:{number}"
                break
    return found


# --------------------------------------------------------------------------
# Parser conveniences
# --------------------------------------------------------------------------


def _flexible_parser_source(tree: SourceTree) -> tuple[str, str]:
    for modname in ("vllm.utils.argparse_utils", "vllm.utils", "vllm.utils.__init__"):
        mod = tree.module(modname)
        if mod is None:
            continue
        for n in mod.ast.body:
            if isinstance(n, ast.ClassDef) and n.name == "FlexibleArgumentParser":
                text = mod.path.read_text(encoding="utf-8")
                return ast.get_source_segment(text, n) or "", str(mod.path.relative_to(tree.root))
    return "", ""


def _help_keyword_elsewhere(tree: SourceTree) -> bool:
    """0.9/0.10 handle ``--help=<keyword>`` in vllm/entrypoints/utils.py."""
    p = tree.root / "vllm" / "entrypoints" / "utils.py"
    return p.is_file() and "startswith('--help=')" in p.read_text(encoding="utf-8").replace(
        '"', "'"
    )


def read_parser_features(tree: SourceTree) -> dict[str, Any]:
    src, path = _flexible_parser_source(tree)
    feats: dict[str, Any] = {
        "underscore_to_dash": 'replace("_", "-")' in src or "replace('_', '-')" in src,
        "equals_value": 'split("=", 1)' in src or "split('=', 1)" in src,
        "dotted_json_keys": "create_nested_dict" in src or "nested_dict" in src,
        "dotted_list_append_plus": 'endswith("+")' in src or "endswith('+')" in src,
        "config_yaml": "load_config_file" in src or "_pull_args_from_config" in src,
        "enable_disable_pairing": "EnableDisableAction" in src,
        "deprecated_kwarg": '"deprecated"' in src or "'deprecated'" in src,
        "help_keyword": "--help=" in src or _help_keyword_elsewhere(tree),
    }
    if "--optimization-level" in src:
        feats["O_shorthand"] = "--optimization-level"
    elif "-O.mode" in src:
        feats["O_shorthand"] = "--compilation-config.mode"
    elif "-O.level" in src:
        feats["O_shorthand"] = "--compilation-config.level"
    elif '"-O' in src or "'-O" in src:
        feats["O_shorthand"] = "-O"
    else:
        feats["O_shorthand"] = None
    m = re.search(r"def load_config_file.*?(?=\n    def |\Z)", src, re.S)
    cfg = m.group(0) if m else ""
    feats["config_yaml_nested_dicts"] = (
        bool(re.search(r"isinstance\(value, dict\)", cfg)) and "json.dumps" in cfg
    )
    feats["serve_model_option"] = (
        "moved_to_positional" if "model_tag = args[model_idx" in src else "error"
    )
    feats["source"] = path
    return feats


# The string heuristics above were checked by hand against the
# FlexibleArgumentParser source of every release (file given in
# ``parser_features.source``):
#   * 0.8.5.post1 (vllm/utils.py): underscores->dashes, --flag=value, YAML
#     --config (flat); ``-O3`` is rewritten to ``-O 3`` where ``-O`` is the
#     short alias of --compilation-config (level 0-3 or a dict); no dotted JSON
#     keys; ``deprecated=`` is not backported; --model with serve is an error.
#   * 0.9.2, 0.10.2 (vllm/utils/__init__.py): dotted JSON keys and ``key+`` list
#     append; ``-O3`` -> ``-O.level=3``; ``--help=<keyword>`` lives in
#     vllm/entrypoints/utils.py.
#   * 0.11.2 (vllm/utils/argparse_utils.py): ``-O3`` -> ``-O.mode=3``; --model
#     given to serve is moved to the positional argument with a warning.
#   * 0.12.0+: ``-O<x>`` / ``-O <n>`` -> ``--optimization-level``.
#   * 0.16.0+: nested dicts in the --config YAML become JSON flag values
#     (vllm-flags.md says 0.20.0: it read 0.15.0 and 0.20.0 only).
#   * 0.22.1+: --spec-method/--spec-model/--spec-tokens (vllm-flags.md: 0.25.0,
#     same reason).
#   * 0.33.0+: EnableDisableAction pairs --enable-x with --disable-x.
# Corrections, should a heuristic ever disagree with the source, go here
# (minor series -> feature overrides).
HAND_VERIFIED_FEATURES: dict[str, dict[str, Any]] = {}


# --------------------------------------------------------------------------
# Download / unpack / write
# --------------------------------------------------------------------------


def minor_of(release: str) -> str:
    parts = release.split(".")
    return f"{parts[0]}.{parts[1]}"


def ensure_source(release: str, cache: Path, src_root: Path, download: bool = True) -> Path:
    dest = src_root / release
    if (dest / "vllm" / "engine" / "arg_utils.py").is_file():
        return dest
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob(f"vllm-{release}-*.whl"))
    if not wheels and download:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                f"vllm=={release}",
                "-d",
                str(cache),
            ],
            check=True,
        )
        wheels = sorted(cache.glob(f"vllm-{release}-*.whl"))
    if not wheels:
        raise FileNotFoundError(f"no wheel for vllm {release} in {cache}")
    tmp = src_root / f"{release}.tmp-extract"
    with zipfile.ZipFile(wheels[0]) as zf:
        members = [n for n in zf.namelist() if n.startswith("vllm/") and n.endswith(".py")]
        zf.extractall(tmp, members)
    if not dest.exists():
        tmp.rename(dest)
    else:
        for p in tmp.rglob("*.py"):
            target = dest / p.relative_to(tmp)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                p.replace(target)
    return dest


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def keyframes(releases: list[str]) -> set[str]:
    """The releases stored whole: the newest, and the newest patch of every minor series up
    to 0.8 (small: 30 - 137 flags), so that an old pin reads a few files (0.8.5: 0.8.5.post1
    and one delta). Newer releases chain down from the newest: each file is read once per
    run, however many releases the run judges (measured: a keyframe at 0.10, 0.20 and 0.30
    made a run over 16 releases 4 ms slower, for 120 kB more)."""
    newest: dict[str, str] = {}
    for rel in releases:
        newest[minor_of(rel)] = rel  # ascending: the last one wins
    keep = {releases[-1]}
    for minor, rel in newest.items():
        number = int(minor.split(".")[1])
        if number <= 8:
            keep.add(rel)
    return keep


def write_catalogs(results: dict[str, dict[str, Any]], out: Path) -> None:
    """Keyframes (`keyframes`: the newest release among them) are stored whole (`base`);
    every other release is a delta against the next newer one (`next`): its flags are that
    release's minus `removed`, plus `added` and `changed`. Patch releases differ in a few
    flags, so the 92 releases 0.2.0 - 0.34.0 cost little more than their minors."""
    out.mkdir(parents=True, exist_ok=True)
    releases = sorted(results, key=version_key)
    whole = keyframes(releases)
    index: dict[str, Any] = {"format": FORMAT_VERSION, "base": releases[-1], "releases": []}
    entries: list[dict[str, Any]] = []
    nxt: dict[str, Any] | None = None
    next_rel = ""
    for rel in reversed(releases):
        res = results[rel]
        fname = f"{rel}.json"
        if nxt is None or rel in whole:
            body = {
                "release": rel,
                "flags": res["flags"],
                "positional": res["positional"],
                "parser_features": res["parser_features"],
            }
            kind = "base"
        else:
            nf, cf = nxt["flags"], res["flags"]
            body = {
                "release": rel,
                "next": next_rel,
                "added": {k: cf[k] for k in cf if k not in nf},
                "removed": sorted(k for k in nf if k not in cf),
                "changed": {k: cf[k] for k in cf if k in nf and nf[k] != cf[k]},
                "positional": res["positional"],
                "parser_features": res["parser_features"],
            }
            kind = "delta"
        (out / fname).write_text(dump(body), encoding="utf-8")
        entries.append(
            {
                "minor": minor_of(rel),
                "release": rel,
                "file": fname,
                "kind": kind,
                "flag_count": len(res["flags"]),
                "entrypoints": res.get("entrypoints", {}),
            }
        )
        nxt, next_rel = res, rel
    index["releases"] = entries[::-1]
    # remove stale per-release files
    keep = {f"{r}.json" for r in releases} | {"index.json"}
    for p in out.glob("*.json"):
        if p.name not in keep:
            p.unlink()
    (out / "index.json").write_text(dump(index), encoding="utf-8")


def version_key(v: str) -> tuple[int, ...]:
    nums = [int(x) for x in re.findall(r"\d+", v)]
    return tuple(nums)


def iter_releases(selected: list[str] | None) -> Iterator[str]:
    yield from (selected or RELEASES)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", nargs="+", help="releases to extract (default: all of RELEASES)")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "schemas" / "flags"
    )
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument("--no-download", action="store_true")
    ap.add_argument("--dump", type=Path, help="also write one full JSON per release here")
    ns = ap.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    for rel in iter_releases(ns.releases):
        root = ensure_source(rel, ns.cache_dir, ns.src_dir, not ns.no_download)
        res = extract_release(root, minor_of(rel))
        results[rel] = res
        print(f"{rel}: {len(res['flags'])} flags", file=sys.stderr)
        if ns.dump:
            ns.dump.mkdir(parents=True, exist_ok=True)
            (ns.dump / f"{rel}.json").write_text(dump(res), encoding="utf-8")
    write_catalogs(results, ns.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
