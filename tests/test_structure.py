"""The package's shape (issue 15): no import cycle between modules, no module state."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

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


# What a run of the linter imports matters on every commit (issue 15's cold start): a
# dataclass costs ~0.5 ms to define and pulls in `inspect` (with `ast`, `dis`, `tokenize`),
# so the lint path of every file format holds plain classes and NamedTuples. The one
# importer allowed is `packaging.requirements`, loaded only when a pin file is read.
_IMPORTS_OF_A_RUN = """
import contextlib, io, sys
from vllm_lint.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["--fail-on", "never", "."])
print(" ".join(m for m in ("dataclasses", "inspect", "packaging.requirements") if m in sys.modules))
"""


def _source_cases() -> list[Path]:
    return sorted(p for p in (REPO / "tests" / "cases" / "sources").glob("*/*") if p.is_dir())


def _imports_of_a_run(folder: Path) -> set[str]:
    """Which of the watched modules a fresh interpreter imported to lint `folder`."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF_A_RUN],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.mark.parametrize("case", _source_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_run_defines_no_dataclass(case: Path) -> None:
    imported = _imports_of_a_run(case)
    if "packaging.requirements" not in imported:
        assert not imported & {"dataclasses", "inspect"}, f"{case}: {sorted(imported)}"


def test_the_import_check_can_fail(tmp_path: Path) -> None:
    """The same probe sees a dataclass when the run defines one (a rule pack's run imports
    the jsonschema validator, which uses them)."""
    (tmp_path / "deploy.yaml").write_text(
        (REPO / "examples/kubernetes/nemotron-replayssm-v0.28.yaml").read_text()
    )
    (tmp_path / ".vllm-lint.yaml").write_text("extra-rules: [pack.json]\n")
    (tmp_path / "pack.json").write_text(
        (REPO / "examples/rule-packs/require-max-model-len.json").read_text()
    )
    assert "dataclasses" in _imports_of_a_run(tmp_path)
