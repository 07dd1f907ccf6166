"""What the names of a Python module hold, as far as the code says so literally.

Each function (and the module, and each class for `self.x`) is a scope; its statements are
read in source order, compound statements included, and every assignment or mutation of a
name is recorded: `x = …`, `x += […]`, `x.extend(…)`, `x.append(…)`, `x[k] = …`,
`x.update(…)`. A name's value at a place is its last assignment before that place plus the
mutations after it; a flag added under an `if` counts, but what the two arms of one
`if`/`else` (or `elif`) each do to a name is unknown (one of them, at run time), and the
statements after an `if` whose body returns count as its `else`. A name assigned anything
that is not a literal stays unknown, and so does a parameter.

Imports are kept apart, per scope: `imported` says which module attribute a name stands for
where it is used (`import vllm as v`, `from vllm import LLM as Engine`, an import inside a
function), the last import of the name before the use winning as it does at run time.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import NamedTuple

Place = tuple[int, int]  # (line, byte column) of a node, as `ast` reports it
_NEAR = 64
_END: Place = (1 << 30, 0)
_MUTATORS = frozenset({"extend", "append", "update", "insert", "setdefault"})


class Event(NamedTuple):
    kind: str  # "assign", "iadd", "extend", "append", "update", "setitem"
    place: Place
    value: ast.expr
    key: ast.expr | None = None  # of `x[key] = value`
    keywords: tuple[ast.keyword, ...] = ()  # of `x.update(a=1)`
    branch: tuple[tuple[int, int], ...] = ()  # (the `if`, 0 body / 1 else) it sits in


class Scope:
    """A module, class or function scope: what each name was given, in source order."""

    __slots__ = ("assigns", "events", "imports", "node", "owner", "params", "parent", "places")

    def __init__(self, node: ast.AST, parent: Scope | None, owner: Scope | None = None) -> None:
        self.node = node
        self.parent = parent
        self.events: dict[str, list[Event]] = {}
        self.params: set[str] = set()
        self.owner = owner  # the class scope a method's `self.x` belongs to
        # per name, kept as events are added (in source order): their places, and which assign
        self.places: dict[str, list[Place]] = {}
        self.assigns: dict[str, list[int]] = {}
        # per name, in source order: where it is imported, as what, and the `if` arms around
        self.imports: dict[str, list[tuple[Place, str, tuple[tuple[int, int], ...]]]] = {}

    def add(self, name: str, event: Event) -> None:
        target = self.owner if name.startswith("self.") and self.owner is not None else self
        events = target.events.setdefault(name, [])
        if event.kind == "assign":
            target.assigns.setdefault(name, []).append(len(events))
        target.places.setdefault(name, []).append(event.place)
        events.append(event)

    def lookup(self, name: str) -> tuple[Scope, list[Event]] | None:
        """The scope that binds `name` (Python's rule: assigned here means local)."""
        scope: Scope | None = self
        if name.startswith("self."):
            scope = self.owner or self
            found = scope.events.get(name)
            return (scope, found) if found else None
        while scope is not None:
            if name in scope.params:
                return None
            if name in scope.events:
                return scope, scope.events[name]
            scope = scope.parent
        return None

    def history(self, name: str, at: Place = _END) -> list[Event] | None:
        """The last assignment of `name` before `at` and the mutations that follow it."""
        found = self.lookup(name)
        if found is None:
            return None
        scope, events = found
        if scope is not self and not name.startswith("self."):
            at = _END  # a global or enclosing name: whatever it ends up holding
        # events are in source order: bisect, so a long function stays linear in its length
        count = bisect_left(scope.places[name], at)
        assigns = scope.assigns.get(name, [])
        starts = assigns[: bisect_left(assigns, count)]
        if not starts:
            return None
        latest = events[starts[-1] : count]
        # the assignments just before (an if/else is near): bounded work on long functions
        if _exclusive([events[k] for k in starts[-_NEAR:]]) & {i for i, _ in latest[0].branch}:
            # assigned differently on two arms of an `if`: unknown, then what follows
            first = latest[0]
            latest = [Event("unknown", first.place, first.value), *latest[1:]]
        exclusive = _exclusive(latest[1:])
        out: list[Event] = latest[:1]
        for event in latest[1:]:
            if any(i in exclusive for i, _ in event.branch):
                if out[-1].kind != "unknown":
                    out.append(Event("unknown", event.place, event.value))
            else:
                out.append(event)
        return out

    def imported(self, name: str, at: Place = _END) -> str | None:
        """What `name` was imported as where it is used at `at` (`vllm.LLM` for `Engine` of
        `from vllm import LLM as Engine`; `vllm` for `v` of `import vllm as v`), or None: not
        imported, bound otherwise in a nearer scope (a parameter, an assignment in the
        function), or imported from two modules on the two arms of one `if` (either, at run
        time). An assignment beside an import in the same scope (`except ImportError: LLM =
        None`) does not hide it."""
        scope: Scope | None = self
        while scope is not None:
            found = scope.imports.get(name)
            if found:
                if scope is not self:
                    at = _END  # a global: whatever it ends up holding
                before = [entry for entry in found if entry[0] < at]
                if not before:
                    return None
                last = before[-1]
                arms = _exclusive_arms(b for _, _, b in before)
                if any(i in arms for i, _ in last[2]):
                    seen = {what for _, what, b in before if any(i in arms for i, _ in b)}
                    return last[1] if len(seen) == 1 else None
                return last[1]
            if name in scope.params or name in scope.events:
                return None
            scope = scope.parent
        return None

    def constant(self, name: str) -> ast.expr | None:
        """The value of a name assigned exactly once, never mutated."""
        found = self.lookup(name)
        if found is None:
            return None
        _scope, events = found
        if len(events) != 1 or events[0].kind != "assign":
            return None
        return events[0].value


def _exclusive(events: list[Event]) -> set[int]:
    """The `if` statements whose two arms both hold some of `events`."""
    return _exclusive_arms(event.branch for event in events)


def _exclusive_arms(branches: Iterable[tuple[tuple[int, int], ...]]) -> set[int]:
    arms: dict[int, set[int]] = {}
    for branch in branches:
        for if_id, arm in branch:
            arms.setdefault(if_id, set()).add(arm)
    return {if_id for if_id, seen in arms.items() if len(seen) > 1}


def _unknown(where: ast.AST) -> ast.expr:
    """The value of a name bound to something not written (a loop variable): `...`."""
    return ast.copy_location(ast.Constant(value=...), where)


def place(node: ast.AST) -> Place:
    """Where a node starts (a use of a name)."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def done(node: ast.AST) -> Place:
    """Where a node ends: an assignment holds from there (`x = [*x, "a"]` reads the old x)."""
    end_line = getattr(node, "end_lineno", None)
    end_col = getattr(node, "end_col_offset", None)
    if isinstance(end_line, int) and isinstance(end_col, int):
        return (end_line, end_col)
    return place(node)


def _target(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return f"self.{node.attr}"
    return None


class Scopes:
    """Every scope of a module, and the scope each node belongs to."""

    def __init__(self, tree: ast.Module) -> None:
        self.module = Scope(tree, None)
        self._of: dict[int, Scope] = {}
        self._build(tree.body, self.module)

    def of(self, node: ast.AST) -> Scope:
        return self._of.get(id(node), self.module)

    def all(self) -> Iterator[Scope]:
        seen: dict[int, Scope] = {id(self.module): self.module}
        for scope in self._of.values():
            seen.setdefault(id(scope), scope)
        yield from seen.values()

    def _build(
        self, body: list[ast.stmt], scope: Scope, branch: tuple[tuple[int, int], ...] = ()
    ) -> None:
        for stmt in body:
            self._statement(stmt, scope, branch)
            if isinstance(stmt, ast.If) and _ends(stmt.body):
                # `if c: …; return` - what follows runs only when the body did not
                branch = (*branch, (id(stmt), 1))
            elif isinstance(stmt, ast.If) and stmt.orelse and _ends(stmt.orelse):
                branch = (*branch, (id(stmt), 0))

    def _mark(self, node: ast.AST, scope: Scope) -> None:
        """Record the scope of every node of an expression or simple statement."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Lambda):
                continue
            self._of[id(sub)] = scope

    def _statement(
        self, stmt: ast.stmt, scope: Scope, branch: tuple[tuple[int, int], ...] = ()
    ) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                self._mark(deco, scope)
            inner = Scope(
                stmt, scope, owner=scope if isinstance(scope.node, ast.ClassDef) else scope.owner
            )
            args = stmt.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if arg is not None:
                    inner.params.add(arg.arg)
            for default in [*args.defaults, *args.kw_defaults]:
                if default is not None:
                    self._mark(default, scope)
            self._of[id(stmt)] = inner
            self._build(stmt.body, inner)
            return
        if isinstance(stmt, ast.ClassDef):
            inner = Scope(stmt, scope)
            self._of[id(stmt)] = inner
            self._build(stmt.body, inner)
            return
        self._events(stmt, scope, branch)
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.ExceptHandler):
                if child.type is not None:
                    self._mark(child.type, scope)
            elif isinstance(child, ast.match_case):
                if child.guard is not None:
                    self._mark(child.guard, scope)
            elif not isinstance(child, ast.stmt):
                self._mark(child, scope)
        if isinstance(stmt, ast.If):
            self._build(stmt.body, scope, (*branch, (id(stmt), 0)))
            self._build(stmt.orelse, scope, (*branch, (id(stmt), 1)))
            return
        for block in _bodies(stmt):  # in source order
            self._build(block, scope, branch)

    def _events(self, stmt: ast.stmt, scope: Scope, branch: tuple[tuple[int, int], ...]) -> None:
        def add(name: str, event: Event) -> None:
            scope.add(name, event._replace(branch=branch))

        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for local, what in _imported(stmt):
                scope.imports.setdefault(local, []).append((done(stmt), what, branch))
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            name = _target(target)
            if name is not None:
                add(name, Event("assign", done(stmt), stmt.value))
            elif isinstance(target, ast.Subscript):
                base = _target(target.value)
                if base is not None:
                    add(base, Event("setitem", done(stmt), stmt.value, key=target.slice))
            elif isinstance(target, (ast.Tuple, ast.List)):
                for elt in target.elts:  # `a, b = …`: both unknown from here on
                    sub = _target(elt)
                    if sub is not None:
                        add(sub, Event("assign", done(stmt), _unknown(elt)))
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            name = _target(stmt.target)
            if name is not None:
                add(name, Event("assign", done(stmt), stmt.value))
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add):
            name = _target(stmt.target)
            if name is not None:
                add(name, Event("iadd", done(stmt), stmt.value))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in _MUTATORS:
                name = _target(func.value)
                if (
                    name is not None
                    and func.attr in ("extend", "append", "update")
                    and (call.args or call.keywords)
                ):
                    value = (
                        call.args[0]
                        if call.args
                        else ast.copy_location(ast.Dict(keys=[], values=[]), call)
                    )
                    add(name, Event(func.attr, done(stmt), value, keywords=tuple(call.keywords)))
        elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            held: list[ast.expr] = (
                [stmt.target]
                if isinstance(stmt, (ast.For, ast.AsyncFor))
                else [i.optional_vars for i in stmt.items if i.optional_vars is not None]
            )
            for node in held:
                for part in ast.walk(node):
                    bound = _target(part)
                    if bound is not None:  # a loop or `with` variable: not a literal
                        add(bound, Event("assign", done(node), _unknown(part)))


def _imported(stmt: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str]]:
    """(the name bound, what it stands for) of each name an import binds. `import a.b` binds
    `a` to `a`; a relative import (`from . import x`) names a module of the linted repo, never
    vLLM's; `from m import *` binds names no one wrote."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                yield alias.asname, alias.name
            else:
                head = alias.name.partition(".")[0]
                yield head, head
        return
    if stmt.level or not stmt.module:
        for alias in stmt.names:
            if alias.name != "*":
                yield alias.asname or alias.name, f".{alias.name}"
        return
    for alias in stmt.names:
        if alias.name != "*":
            yield alias.asname or alias.name, f"{stmt.module}.{alias.name}"


def _ends(body: list[ast.stmt]) -> bool:
    """Whether a block leaves its function or loop at its end (`return`, `raise` …)."""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _bodies(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    yield getattr(stmt, "body", None) or []
    for handler in getattr(stmt, "handlers", None) or []:
        yield handler.body
    for case in getattr(stmt, "cases", None) or []:
        yield case.body
    yield getattr(stmt, "orelse", None) or []
    yield getattr(stmt, "finalbody", None) or []
