"""The package's shape (issue 15): no import cycle between modules, no module state."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "hooks" / "vllm_lint"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text("utf-8")) for p in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def top_level_imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The package's modules that `name` imports when it is imported (not inside functions,
    not for type checking only)."""
    found: set[str] = set()
    package = name if (PACKAGE / Path(*name.split(".")[1:]) / "__init__.py").exists() else ""
    base = package or name.rpartition(".")[0]
    stack: list[ast.AST] = [n for n in tree.body if not _type_checking(n)]
    while stack:
        inner = stack.pop()
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # imported when called, not when the module is
        stack.extend(ast.iter_child_nodes(inner))
        if isinstance(inner, ast.Import):
            found |= {a.name for a in inner.names if a.name in known}
        elif isinstance(inner, ast.ImportFrom):
            target = inner.module or ""
            if inner.level:  # relative: the package keeps absolute imports, but be exact
                target = ".".join(base.split(".")[: len(base.split(".")) - inner.level + 1])
                target = f"{target}.{inner.module}" if inner.module else target
            for alias in inner.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in known else target)
    return {m for m in found if m in known and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> list[str] | None:
        state[name] = 1
        for dep in sorted(graph[name]):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state:
                found = visit(dep, [*path, dep])
                if found:
                    return found
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name, [name])
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    trees = modules()
    known = set(trees)
    graph = {name: top_level_imports(name, tree, known) for name, tree in trees.items()}
    assert "vllm_lint.options" in graph["vllm_lint.pipeline"], "the import scan is broken"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
    graph["vllm_lint.options"].add("vllm_lint.pipeline")  # the check sees one when there is
    assert find_cycle(graph) == ["vllm_lint.options", "vllm_lint.pipeline", "vllm_lint.options"]


def test_no_module_state() -> None:
    """No `global` statement: what a run needs travels in Options (caches of immutable data
    keyed by their inputs, `functools.cache`, are not state)."""
    offenders = [
        f"{name}:{node.lineno}"
        for name, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
    ]
    assert not offenders, offenders
