"""Every place the package touches a file, found by parsing its modules with `ast` (nothing is
imported): the contract tests of the one way in (tests/test_file_reads.py) and the one way
out (tests/test_writes.py) compare them with their short lists of allowed places.

A place is (module, function) — `files/writer.py:write_inside` — and what it does: "read" or
"write". A call is recognised by what it names, however it is imported (`from os import
replace`, `import shutil as sh`), and so is a mention that is not called (`read=Path.read_bytes`
passed on): what matters is that the name is reached for, not how.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import NamedTuple

from conftest import REPO

PACKAGE = REPO / "hooks" / "vllm_lint"

# Modules whose every function writes or reads files; the method names of pathlib.Path.
WRITING_MODULES = frozenset({"shutil", "tempfile"})
WRITING_FUNCTIONS = frozenset(
    {
        "os.replace",
        "os.rename",
        "os.renames",
        "os.link",
        "os.symlink",
        "os.remove",
        "os.unlink",
        "os.rmdir",
        "os.removedirs",
        "os.mkdir",
        "os.makedirs",
        "os.truncate",
        "os.ftruncate",
        "os.chmod",
        "os.chown",
        "os.utime",
        "os.mkfifo",
        "os.mknod",
        "os.write",
        "os.dup2",
    }
)
WRITING_METHODS = frozenset(
    {
        "write_text",
        "write_bytes",
        "touch",
        "mkdir",
        "unlink",
        "rmdir",
        "symlink_to",
        "hardlink_to",
        "link_to",
    }
)
READING_FUNCTIONS = frozenset({"os.read", "os.pread", "json.load", "tomllib.load", "tomli.load"})
READING_METHODS = frozenset({"read_text", "read_bytes"})
OPENERS = frozenset({"open", "io.open", "codecs.open", "os.fdopen", "os.open", "builtins.open"})
_WRITE_FLAGS = frozenset({"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"})


class Place(NamedTuple):
    where: str  # "files/writer.py:write_inside" (":<module>" for top-level code)
    line: int
    does: str  # "read" or "write"
    what: str  # the name reached for


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def places() -> Iterator[Place]:
    for path in modules():
        yield from scan(path.relative_to(PACKAGE).as_posix(), path.read_text("utf-8"))


def strays(does: str, allowed: Collection[str]) -> tuple[list[str], set[str]]:
    """The places that `does` ("read", "write") outside `allowed` (a `module:function`, or a
    whole module), and the allowed entries no place uses any more."""
    found = [p for p in places() if p.does == does]

    def ok(where: str) -> bool:
        return where in allowed or where.split(":", 1)[0] in allowed

    stray = [f"{p.where} (line {p.line}): {p.what}" for p in found if not ok(p.where)]
    used = {p.where for p in found} | {p.where.split(":", 1)[0] for p in found}
    return stray, set(allowed) - used


def scan(module: str, source: str) -> list[Place]:
    """The places of one module's source."""
    return _Scan(module, source).places


class _Scan(ast.NodeVisitor):
    def __init__(self, module: str, source: str) -> None:
        self.module = module
        self.aliases: dict[str, str] = {}  # local name -> "module" or "module.function"
        self.scope: list[str] = []
        self.places: list[Place] = []
        self.called: set[int] = set()  # ids of nodes seen as the function of a call
        self.visit(ast.parse(source))

    def _add(self, node: ast.AST, does: str, what: str) -> None:
        where = f"{self.module}:{'.'.join(self.scope) or '<module>'}"
        self.places.append(Place(where, getattr(node, "lineno", 0), does, what))

    # -- names --------------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _dotted(self, node: ast.expr) -> str | None:
        """`os.replace`, `shutil.copy`, `open` as imported; None for anything else."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id, node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = self.aliases.get(node.value.id)
            return f"{base}.{node.attr}" if base is not None else None
        return None

    # -- what is reached for ------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        self.called.add(id(node.func))
        self._classify(node.func, node)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if id(node) not in self.called:
            self._classify(node, None)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if id(node) not in self.called:
            self._classify(node, None)
        self.generic_visit(node)

    def _classify(self, func: ast.expr, call: ast.Call | None) -> None:
        dotted = self._dotted(func)
        method = func.attr if isinstance(func, ast.Attribute) else None
        if dotted in OPENERS or (method == "open" and dotted is None):
            self._opened(func, call, dotted or "Path.open")
        elif dotted is not None and (
            dotted.split(".")[0] in WRITING_MODULES or dotted in WRITING_FUNCTIONS
        ):
            self._add(func, "write", dotted)
        elif dotted in READING_FUNCTIONS:
            self._add(func, "read", dotted)
        elif dotted is not None and dotted.startswith("vllm_lint."):
            return  # the package's own functions: `reader.read_text` is the gate itself
        elif method in WRITING_METHODS:
            self._add(func, "write", f".{method}")
        elif method in READING_METHODS:
            self._add(func, "read", f".{method}")

    def _opened(self, func: ast.expr, call: ast.Call | None, what: str) -> None:
        """An open: a read, a write, or both when its mode is not written out."""
        if call is None:
            self._add(func, "read", what)
            self._add(func, "write", what)
            return
        if what == "os.open":
            flags = call.args[1] if len(call.args) > 1 else None
            names = (
                {n.attr for n in ast.walk(flags) if isinstance(n, ast.Attribute)}
                if flags
                else set()
            )
            names |= {n.id for n in ast.walk(flags) if isinstance(n, ast.Name)} if flags else set()
            self._add(func, "write" if names & _WRITE_FLAGS else "read", what)
            return
        at = 0 if what == "Path.open" else 1  # Path.open(mode), open(file, mode)
        mode: ast.expr | None = call.args[at] if len(call.args) > at else None
        for keyword in call.keywords:
            if keyword.arg == "mode":
                mode = keyword.value
        if mode is None:
            self._add(func, "read", what)
        elif isinstance(mode, ast.Constant) and isinstance(mode.value, str):
            writes = any(c in mode.value for c in "wax+")
            self._add(func, "write" if writes else "read", what)
            if "+" in mode.value:
                self._add(func, "read", what)
        else:
            self._add(func, "read", what)
            self._add(func, "write", what)
