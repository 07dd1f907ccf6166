"""The package's shape (issues 15, 26): no import cycle between modules, imports only in the
direction of ARCHITECTURE.md's rooms, no module state."""

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


# ARCHITECTURE.md's rooms, in the order a run goes through them: a module imports only from its
# own room and the rooms above it (a value flows forward, never back). Types named only for the
# type checker (`if TYPE_CHECKING:`) are not imports: no code runs and no data flows.
ROOMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("shared values", ("vllm_lint", "vllm_lint.model", "vllm_lint.exits", "vllm_lint.resources")),
    ("files/, read/", ("vllm_lint.files", "vllm_lint.read")),
    ("release", ("vllm_lint.release",)),
    ("argv/", ("vllm_lint.argv",)),
    ("sources/", ("vllm_lint.sources",)),
    ("effective/", ("vllm_lint.effective",)),
    ("rules/", ("vllm_lint.rules",)),
    ("what a run is asked", ("vllm_lint.options", "vllm_lint.config")),
    (
        "the loop and after it",
        (
            "vllm_lint.pipeline",
            "vllm_lint.fixer",
            "vllm_lint.fingerprint",
            "vllm_lint.baseline",
            "vllm_lint.amend",
        ),
    ),
    ("report/", ("vllm_lint.report",)),
    (
        "the front",
        (
            "vllm_lint.quick",
            "vllm_lint.cli",
            "vllm_lint.__main__",
            "vllm_lint.arguments",
            "vllm_lint.config_docs",
            "vllm_lint.action_support",
            "vllm_lint.flag_command",
        ),
    ),
    # `vllm-lint server` (optional extra): it drives the pipeline; nothing imports it
    ("lsp/", ("vllm_lint.lsp",)),
)

# The imports that go against the rooms, each with why it stays (module -> module it imports).
BACKWARD_ALLOWED = {
    # The argv grammar writes into Settings, the value effective/ then completes (a record with
    # no imports of its own); argv/ is the grammar, effective/ the room the record lives in.
    ("vllm_lint.argv.mined", "vllm_lint.effective.settings"),
    ("vllm_lint.argv.parser", "vllm_lint.effective.settings"),
    ("vllm_lint.argv.unused", "vllm_lint.effective.settings"),
    # A Dockerfile's shell-form CMD is run by `/bin/sh -c`: one constant shared with the
    # entry-point check, so that the reader and the check cannot disagree.
    ("vllm_lint.sources.dockerfile", "vllm_lint.effective.entrypoints"),
    # `--explain` of a rule shows whether the configuration selects it (lazy, docs only).
    ("vllm_lint.rules.docs", "vllm_lint.config"),
    # The path GitHub shows a file at (GITHUB_WORKSPACE-relative), which the baseline's and
    # SARIF's fingerprints must share with the github reporter.
    ("vllm_lint.fingerprint", "vllm_lint.report.github"),
    ("vllm_lint.baseline", "vllm_lint.report.github"),
    # `--diff` and the "not fixed" line are output: they go through the one output gate that
    # every reporter goes through (tests/test_reporter_contract.py), never around it.
    ("vllm_lint.amend", "vllm_lint.report.escape"),
    ("vllm_lint.amend", "vllm_lint.report.gate"),
    # `vllm-lint server`: the command line hands the run to the language server (lazily, only
    # then: tests/test_lsp.py checks a lint never loads it); nothing else imports it.
    ("vllm_lint.cli", "vllm_lint.lsp"),
}


# Forward, and still not allowed: a room that reads files after the readers, or a reporter that
# runs a stage again instead of showing what the pipeline produced (`FileResult.settings`).
NEVER = {
    ("vllm_lint.effective", "vllm_lint.files.reader"),  # `--config`: sources/config_file.py
    ("vllm_lint.effective", "vllm_lint.sources"),
    ("vllm_lint.report", "vllm_lint.sources"),
    ("vllm_lint.report", "vllm_lint.argv"),
    ("vllm_lint.report", "vllm_lint.effective"),
    ("vllm_lint.report", "vllm_lint.pipeline"),
}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def room_of(module: str) -> int:
    """The index of the room a module belongs to (its longest matching prefix)."""
    best, index = -1, -1
    for i, (_name, prefixes) in enumerate(ROOMS):
        for prefix in prefixes:
            if _within(module, prefix) and len(prefix) > best:
                best, index = len(prefix), i
    assert index >= 0, f"{module} is in no room of ARCHITECTURE.md: add it to ROOMS"
    return index


def runtime_imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The package's modules that `name` imports at any time (at import or inside a function),
    leaving out what only the type checker reads."""
    found: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if _type_checking(node):  # type: ignore[arg-type]
            continue
        stack.extend(ast.iter_child_nodes(node))
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("vllm_lint"):
                found.add(target)
    return found


def backward_imports(graph: dict[str, set[str]]) -> list[str]:
    """The imports against the rooms' order (less the allowed ones) or in NEVER."""
    return sorted(
        f"{name} -> {dep}"
        for name, deps in graph.items()
        for dep in deps
        if (room_of(dep) > room_of(name) and (name, dep) not in BACKWARD_ALLOWED)
        or any(_within(name, a) and _within(dep, b) for a, b in NEVER)
    )


def import_graph() -> dict[str, set[str]]:
    trees = modules()
    known = set(trees)
    return {name: runtime_imports(name, tree, known) for name, tree in trees.items()}


def test_imports_follow_the_rooms() -> None:
    graph = import_graph()
    assert "vllm_lint.effective.settings" in graph["vllm_lint.rules.evaluate"], "scan broken"
    assert backward_imports(graph) == []
    used = {(name, dep) for name, deps in graph.items() for dep in deps}
    assert used >= BACKWARD_ALLOWED, f"allowed but gone: {sorted(BACKWARD_ALLOWED - used)}"
    # planted: a reader asking the rules, and a reporter building settings again
    graph["vllm_lint.sources.compose"].add("vllm_lint.rules.evaluate")
    graph["vllm_lint.report.invocations"].add("vllm_lint.effective.build")
    assert backward_imports(graph) == [
        "vllm_lint.report.invocations -> vllm_lint.effective.build",
        "vllm_lint.sources.compose -> vllm_lint.rules.evaluate",
    ]


def test_every_module_has_a_room() -> None:
    assert {room_of(name) for name in modules()} == set(range(len(ROOMS)))


def test_no_module_state() -> None:
    """No `global` statement: what a run needs travels in Options. (What modules hold after
    runs on new input, caches and containers included: tests/test_module_state.py.)"""
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


@pytest.mark.slow  # a fresh interpreter per golden case
@pytest.mark.parametrize("case", _source_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_run_defines_no_dataclass(case: Path) -> None:
    imported = _imports_of_a_run(case)
    if "packaging.requirements" not in imported:
        assert not imported & {"dataclasses", "inspect"}, f"{case}: {sorted(imported)}"


@pytest.mark.slow  # a fresh interpreter
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


# The lanes (conftest.py, CONTRIBUTING.md): a test file that starts one of the known-slow
# programs carries `slow` at its top, so that a file added next year lands in the slow lane
# by itself rather than by someone noticing the fast lane grew.
def slow_kinds(tree: ast.Module) -> set[str]:
    """The known-slow things a test module starts."""
    kinds: set[str] = set()
    for node in ast.walk(tree):
        named: set[str] = set()  # what the node imports or defines
        if isinstance(node, ast.Import):
            named = {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            named = {node.module or "", *(a.name for a in node.names)}
        elif isinstance(node, ast.FunctionDef):
            named = {node.name}
        words = node.elts if isinstance(node, (ast.List, ast.Tuple)) else []  # a command
        if any(isinstance(w, ast.Constant) and w.value == "try-repo" for w in words):
            kinds.add("pre-commit try-repo")
        if "childrun" in named:
            kinds.add("a child with limits (tests/hostile/childrun.py)")
        if "run_action" in named:
            kinds.add("the action's steps")
    return kinds


def marked_slow(tree: ast.Module) -> bool:
    """A module-level `pytestmark` that holds `pytest.mark.slow`."""
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and "mark.slow" in ast.unparse(node.value)
        for node in tree.body
    )


def unmarked_slow_files(trees: dict[str, ast.Module]) -> list[str]:
    return sorted(
        f"{name}: {', '.join(sorted(slow_kinds(tree)))}"
        for name, tree in trees.items()
        if slow_kinds(tree) and not marked_slow(tree)
    )


def test_files_that_start_slow_programs_are_in_the_slow_lane() -> None:
    tests = REPO / "tests"
    trees = {
        str(p.relative_to(tests)): ast.parse(p.read_text("utf-8"))
        for p in [*tests.glob("test_*.py"), *tests.glob("hostile/test_*.py")]
    }
    starting = {name for name, tree in trees.items() if slow_kinds(tree)}
    assert {"test_precommit.py", "test_action.py", "hostile/test_growth.py"} <= starting
    assert unmarked_slow_files(trees) == []
    planted = {
        "test_new.py": ast.parse("from childrun import lint\n"),
        "test_marked.py": ast.parse(
            "import pytest\nfrom childrun import lint\npytestmark = [pytest.mark.slow]\n"
        ),
    }
    assert unmarked_slow_files(planted) == [
        "test_new.py: a child with limits (tests/hostile/childrun.py)"
    ]
