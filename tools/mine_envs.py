#!/usr/bin/env python3
"""Mine vLLM's environment variables per release: ``schemas/envs/<release>.json``.

    python -m tools.mine_envs                       # every release of schemas/flags/index.json
    python -m tools.mine_envs --releases 0.34.0     # some of them
    python -m tools.mine_envs --check               # exit 1 if a shipped file is stale

Read from ``vllm/envs.py`` of each release's wheel (ast only): the ``environment_variables``
dict, name -> a getter. Each getter is matched against the shapes vLLM writes (a lambda of
``os.getenv``/``os.environ.get`` wrapped in ``int``/``float``/``bool(int(...))``/
``maybe_convert_*``/``.lower() in (...)``/``os.path.expanduser``, or ``env_with_choices``,
``env_list_with_choices``, ``env_set_with_choices``, ``deprecated_env``); a getter of any other
shape is ``custom`` and only its name is known. ``kind`` says what a value must look like:

* ``int`` / ``float``: ``int(value)`` / ``float(value)``, an error otherwise;
* ``bool_int``: ``bool(int(value))`` -- "0"/"1" (any int); "true" is an error;
* ``bool_words``: true iff ``value`` (lower-cased when ``case_sensitive`` is false) is one of
  ``words``; never an error;
* ``bool_eq``: true iff ``value == word`` (``bool_ne``: iff ``value != word``);
* ``str`` (``normalize``: str methods applied first), ``path`` (``os.path.expanduser``),
  ``json`` (``json.loads`` of the value or of a file it names), ``list`` (split on ``sep``);
* ``choice`` / ``choice_list``: ``env_with_choices`` / ``env_list_with_choices`` (comma-
  separated): a value outside ``choices`` raises ``ValueError`` *when vLLM reads the variable*
  (``case_sensitive`` as written; ``choices_dynamic`` when the list is computed at run time);
* ``custom``: another function (``function``).

``environ_check`` describes how the release treats ``VLLM_*`` variables it does not know
(``validate_environ``, 0.17+, called from ``EngineArgs.create_engine_config``): a warning, or
an error with ``--fail-on-environ-validation``; from 0.34 also ``removed`` variables (an error
with a migration hint) and the messages of every ``raise`` in that function.
"""

from __future__ import annotations

import ast
import json
import math
import sys
from pathlib import Path
from typing import Any

try:
    from tools import extract_flags as ef
    from tools.mine_validation import write_per_release
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools import extract_flags as ef
    from tools.mine_validation import write_per_release

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "schemas" / "envs"
FORMAT_VERSION = 1


def _getenv(node: ast.expr | None) -> tuple[str, Any, bool] | None:
    """``os.getenv(N[, D])`` / ``os.environ.get(N[, D])`` / ``os.environ[N]`` ->
    (name, default source node or None, has_default)."""
    if isinstance(node, ast.Call):
        fn = ef.dotted(node.func)
        if fn in ("os.getenv", "os.environ.get", "getenv") and node.args:
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                default = node.args[1] if len(node.args) > 1 else None
                return name.value, default, len(node.args) > 1
    if (
        isinstance(node, ast.Subscript)
        and ef.dotted(node.value) == "os.environ"
        and isinstance(node.slice, ast.Constant)
    ):
        return str(node.slice.value), None, False
    return None


def _literal(mod: ef.Module, node: ast.expr | None) -> tuple[bool, Any]:
    if node is None:
        return True, None
    v = ef.literal_default(mod, node)
    if isinstance(v, ef.Unknown):
        return False, None
    if isinstance(v, float) and not math.isfinite(v):
        return False, None
    if isinstance(v, tuple):
        v = list(v)
    return True, v


def _convert(kind: str, raw: Any) -> tuple[bool, Any]:
    """The getter's value for a literal default string."""
    if raw is None:
        return True, None
    try:
        if kind == "int":
            return True, int(raw)
        if kind == "float":
            return True, float(raw)
        if kind == "bool_int":
            return True, bool(int(raw))
    except (TypeError, ValueError):
        return False, None
    return True, raw


def _str_chain(node: ast.expr) -> tuple[ast.expr, list[list[str]]]:
    calls: list[list[str]] = []
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("lower", "upper", "strip")
        and not node.args
    ):
        calls.append([node.func.attr])
        node = node.func.value
    return node, list(reversed(calls))


def classify(mod: ef.Module, key: str, node: ast.expr) -> dict[str, Any]:
    """What one getter of ``environment_variables`` accepts."""
    if isinstance(node, ast.Lambda):
        return _classify_expr(mod, key, node.body)
    if isinstance(node, ast.Call):
        fn = ef.dotted(node.func).split(".")[-1]
        if fn in ("env_with_choices", "env_list_with_choices", "env_set_with_choices"):
            return _choices(mod, fn, node)
        if fn == "deprecated_env" and len(node.args) >= 4:
            inner = classify(mod, key, node.args[3])
            ok, removal = _literal(mod, node.args[1])
            inner["deprecated"] = str(removal) if ok and removal is not None else True
            return inner
        if fn == "get_env_or_set_default" and node.args:
            return {"kind": "str", "reads": _const_str(node.args[0])}
    if isinstance(node, ast.Name):
        return {"kind": "custom", "function": node.id}
    return {"kind": "custom"}


def _const_str(node: ast.expr) -> str:
    return str(node.value) if isinstance(node, ast.Constant) else ""


def _choices(mod: ef.Module, fn: str, call: ast.Call) -> dict[str, Any]:
    args = list(call.args)
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    name = args[0] if args else kw.get("env_name")
    default = args[1] if len(args) > 1 else kw.get("default")
    choices = args[2] if len(args) > 2 else kw.get("choices")
    cs = args[3] if len(args) > 3 else kw.get("case_sensitive")
    out: dict[str, Any] = {"kind": "choice" if fn == "env_with_choices" else "choice_list"}
    if name is not None:
        out["reads"] = _const_str(name)
    ok, d = _literal(mod, default)
    if ok:
        out["default"] = d
    ok, vals = _literal(mod, choices) if choices is not None else (False, None)
    enum_names = _enum_member_names(mod, choices)
    if ok and isinstance(vals, list) and all(isinstance(v, str) for v in vals):
        out["choices"] = vals
    elif enum_names is not None:
        out["choices"], out["choices_from"] = enum_names
    else:
        out["choices_dynamic"] = True
    case_sensitive = True
    if isinstance(cs, ast.Constant):
        case_sensitive = bool(cs.value)
    out["case_sensitive"] = case_sensitive
    return out


def _enum_member_names(mod: ef.Module, node: ast.expr | None) -> tuple[list[str], str] | None:
    """``lambda: list(__import__("m", fromlist=[...]).SomeEnum.__members__.keys())`` (the
    VLLM_ATTENTION_BACKEND choices, 0.11-0.14): the member names of that enum in this
    release, and where it is defined."""
    if not isinstance(node, ast.Lambda):
        return None
    for sub in ast.walk(node.body):
        if (
            isinstance(sub, ast.Attribute)
            and sub.attr == "__members__"
            and isinstance(sub.value, ast.Attribute)
            and isinstance(sub.value.value, ast.Call)
            and ef.dotted(sub.value.value.func) == "__import__"
            and sub.value.value.args
            and isinstance(sub.value.value.args[0], ast.Constant)
        ):
            ref = mod.tree.resolve(str(sub.value.value.args[0].value), sub.value.attr)
            if isinstance(ref, ef.ClassRef) and ef.is_enum(ref):
                where = f"{ref.mod.path.relative_to(mod.tree.root).as_posix()}:{ref.node.lineno}"
                return [m.name for m in ef.enum_members(ref)], where
    return None


def _classify_expr(mod: ef.Module, key: str, e: ast.expr) -> dict[str, Any]:
    # int(...), float(...), bool(int(...)), maybe_convert_*(...), json.loads(...)
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords:
        fn = ef.dotted(e.func)
        inner = e.args[0]
        if fn == "int" and isinstance(inner, ast.Call) and ef.dotted(inner.func) == "int":
            inner = inner.args[0] if inner.args else inner  # int(int(...))
        if fn == "bool" and isinstance(inner, ast.Call) and ef.dotted(inner.func) == "int":
            got = _getenv(inner.args[0]) if inner.args else None
            if got is not None:
                return _typed(mod, "bool_int", got)
        kinds = {
            "int": "int",
            "float": "float",
            "maybe_convert_int": "int",
            "maybe_convert_bool": "bool_int",
            "maybe_convert_json_str_or_file": "json",
            "json.loads": "json",
            "os.path.expanduser": "path",
        }
        if fn in kinds:
            got = _getenv(inner)
            if got is not None:
                out = _typed(mod, kinds[fn], got)
                if fn.startswith("maybe_convert") and "default" not in out:
                    out["default"] = None
                return out
    # x if "N" in os.environ else D / None if "N" not in os.environ else os.environ["N"].split(",")
    if isinstance(e, ast.IfExp):
        return _classify_ifexp(mod, key, e)
    # os.getenv(N, D).lower() in ("1", "true")  /  os.getenv(N, D) == "1"
    if isinstance(e, ast.Compare) and len(e.ops) == 1:
        left, calls = _str_chain(e.left)
        got = _getenv(left)
        op = e.ops[0]
        right = e.comparators[0]
        if got is not None:
            ok, raw = _literal(mod, got[1]) if got[2] else (True, None)
            if isinstance(op, ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set):
                ok2, words = _literal(mod, right)
                if ok2:
                    out = {"kind": "bool_words", "reads": got[0], "words": sorted(words)}
                    out["case_sensitive"] = ["lower"] not in calls
                    if calls:
                        out["normalize"] = calls
                    if ok and isinstance(raw, str):
                        v = raw
                        for (c,) in calls:
                            v = getattr(v, c)()
                        out["default"] = v in words
                    return out
            if isinstance(op, ast.Eq | ast.NotEq) and isinstance(right, ast.Constant):
                out = {
                    "kind": "bool_eq" if isinstance(op, ast.Eq) else "bool_ne",
                    "reads": got[0],
                    "word": right.value,
                }
                if calls:
                    out["normalize"] = calls
                if ok and isinstance(raw, str):
                    v = raw
                    for (c,) in calls:
                        v = getattr(v, c)()
                    out["default"] = (v == right.value) == isinstance(op, ast.Eq)
                return out
    # plain string, possibly normalised
    base, calls = _str_chain(e)
    got = _getenv(base)
    if got is not None:
        out = _typed(mod, "str", got)
        if calls:
            out["normalize"] = calls
            if isinstance(out.get("default"), str):
                v = out["default"]
                for (c,) in calls:
                    v = getattr(v, c)()
                out["default"] = v
        return out
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and not e.args:
        return {"kind": "custom", "function": e.func.id}
    return {"kind": "custom"}


def _classify_ifexp(mod: ef.Module, key: str, e: ast.IfExp) -> dict[str, Any]:
    test = e.test
    # "N" in os.environ / "N" not in os.environ
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Constant)
        and ef.dotted(test.comparators[0]) == "os.environ"
    ):
        present, absent = (
            (e.body, e.orelse) if isinstance(test.ops[0], ast.In) else (e.orelse, e.body)
        )
        ok, default = _literal(mod, absent)
        # os.environ["N"].split(",")
        if (
            isinstance(present, ast.Call)
            and isinstance(present.func, ast.Attribute)
            and present.func.attr == "split"
            and _getenv(present.func.value) is not None
        ):
            out: dict[str, Any] = {"kind": "list", "reads": str(test.left.value)}
            if present.args:
                out["sep"] = _const_str(present.args[0])
            if ok:
                out["default"] = default
            return out
        inner = _classify_expr(mod, key, present)
        if inner.get("kind") != "custom":
            inner.pop("default", None)
            if ok:
                inner["default"] = default
            return inner
    return {"kind": "custom"}


def _typed(mod: ef.Module, kind: str, got: tuple[str, Any, bool]) -> dict[str, Any]:
    name, default_node, has_default = got
    out: dict[str, Any] = {"kind": kind, "reads": name}
    if not has_default:
        out["default"] = None
        return out
    ok, raw = _literal(mod, default_node)
    if ok:
        ok2, value = _convert(kind, raw)
        if ok2:
            out["default"] = value
    return out


# --------------------------------------------------------------------------
# Unknown VLLM_* variables
# --------------------------------------------------------------------------


def _message(node: ast.expr | None) -> str:
    """An exception's message with f-string parts shown as {…}."""
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    return "{…}"


def environ_check(tree: ef.SourceTree) -> dict[str, Any] | None:
    """How ``validate_environ`` treats the environment, or None before 0.17."""
    found: tuple[ef.Module, ast.FunctionDef] | None = None
    for modname in ("vllm.platforms.interface", "vllm.envs"):
        mod = tree.module(modname)
        if mod is None:
            continue
        for node in ast.walk(mod.ast):
            if isinstance(node, ast.FunctionDef) and node.name == "validate_environ":
                found = (mod, node)
                break
        if found:
            break
    if found is None:
        return None
    mod, fn = found
    out: dict[str, Any] = {"source": f"{mod.path.relative_to(tree.root).as_posix()}:{fn.lineno}"}
    params = [a.arg for a in fn.args.args if a.arg not in ("cls", "self")]
    hard = params[0] if params else ""
    # the hard_fail branch: `if hard_fail: raise ... else: logger.warning(...)`
    for node in ast.walk(fn):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == hard:
            raises = any(isinstance(s, ast.Raise) for s in node.body)
            warns = any(
                isinstance(s, ast.Expr)
                and isinstance(s.value, ast.Call)
                and ef.dotted(s.value.func).endswith("warning")
                for s in node.orelse
            )
            if raises and warns:
                out["unknown"] = "warning"
                out["unknown_with_flag"] = "error"
    arg_utils = tree.module("vllm.engine.arg_utils")
    if arg_utils is not None:
        for node in ast.walk(arg_utils.ast):
            if (
                isinstance(node, ast.Call)
                and ef.dotted(node.func).endswith("validate_environ")
                and node.args
                and isinstance(node.args[0], ast.Attribute)
            ):
                out["flag"] = "--" + node.args[0].attr.replace("_", "-")
                out["called_from"] = f"vllm/engine/arg_utils.py:{node.lineno}"
    raises = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raises.append({"line": node.lineno, "message": _message(node.exc)})
    out["raises"] = sorted(raises, key=lambda r: r["line"])
    envs_mod = tree.module("vllm.envs")
    if envs_mod is not None:
        b = envs_mod.bindings.get("removed_environment_variables")
        if b is not None and b.kind == "assign":
            ok, removed = _literal(envs_mod, b.node)
            if ok and isinstance(removed, dict):
                out["removed"] = dict(sorted(removed.items()))
    return out


# --------------------------------------------------------------------------
# One release
# --------------------------------------------------------------------------


def mine_release(root: Path, release: str) -> dict[str, Any]:
    tree = ef.SourceTree(root)
    mod = tree.module("vllm.envs")
    if mod is None:
        raise RuntimeError(f"{root}: vllm/envs.py not found")
    table: ast.Dict | None = None
    line = 0
    for st in mod.ast.body:
        target = st.targets[0] if isinstance(st, ast.Assign) else getattr(st, "target", None)
        if (
            isinstance(target, ast.Name)
            and target.id == "environment_variables"
            and isinstance(getattr(st, "value", None), ast.Dict)
        ):
            table = st.value  # type: ignore[union-attr]
            line = st.lineno
    if table is None:
        raise RuntimeError(f"{root}: environment_variables not found in vllm/envs.py")
    variables: dict[str, Any] = {}
    for k, v in zip(table.keys, table.values, strict=True):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            continue
        rec = classify(mod, k.value, v)
        if rec.get("reads") == k.value:
            rec.pop("reads")
        rec["line"] = v.lineno
        variables[k.value] = rec
    return {
        "format": FORMAT_VERSION,
        "release": release,
        "source": f"vllm/envs.py:{line}",
        "environ_check": environ_check(tree),
        "variables": dict(sorted(variables.items())),
    }


def render(data: dict[str, Any]) -> str:
    def j(v: Any) -> str:
        return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    for key in ("format", "release", "source", "environ_check"):
        lines.append(f"{j(key)}:{j(data[key])},")
    lines.append('"variables":{')
    items = list(data["variables"].items())
    for i, (name, rec) in enumerate(items):
        lines.append(f"{j(name)}:{j(rec)}{',' if i < len(items) - 1 else ''}")
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_per_release(
        argv, __doc__, OUT, lambda root, rel: mine_release(root, rel), render, "mine_envs"
    )


if __name__ == "__main__":
    raise SystemExit(main())
