"""Where the non-generated cases come from: the rules' own examples and the test fixtures.

Rule examples are asked at every covered release (inside the rule's range they must agree
with vLLM; outside it they show what vLLM does instead). Fixture command lines are the
vLLM invocations that vllm-lint itself extracts from `examples/` and from the YAML written
by the test modules, asked at every covered release (the upgrade check).
"""

from __future__ import annotations

import ast
import shlex
import textwrap
from collections.abc import Iterator
from pathlib import Path

from vllm_lint.argv import catalog
from vllm_lint.files import sniff
from vllm_lint.rules import registry as rules
from vllm_lint.sources.registry import extract

from .cases import NO_STAND_IN, RELEASES, Case, model_of, passed_env, world_size

REPO = Path(__file__).resolve().parents[2]


def usable(argv: list[str]) -> bool:
    """An argv both sides read alike: the oracle drops a leading `serve` (so `vllm serve serve
    m` would reach vLLM as `serve m`), is one 8-GPU node, has no copy of some models, and has
    none of the files a `--config FILE` names (`--config=FILE` is asked: vLLM never reads it)."""
    if not argv or argv[0] in ("vllm", "serve") or world_size(argv) > 8 or "--config" in argv:
        return False
    return not NO_STAND_IN.search(model_of(argv) or "")


PROPOSED = Path(__file__).resolve().parent / "proposed-rules.json"


def rule_examples(releases: tuple[str, ...] = RELEASES) -> Iterator[Case]:
    """Examples of the built-in rules, then of the proposed ones (family `proposed`)."""
    adopted = {r.id for r in rules.builtin_rules()}
    proposed = [r for r in rules.load_rule_file(PROPOSED) if r.id not in adopted]
    for rule in (*rules.builtin_rules(), *proposed):
        for verdict in ("fail", "pass"):
            for n, example in enumerate(rule.examples.get(verdict, [])):
                example = {"argv": example} if isinstance(example, str) else example
                if "argv" not in example:
                    continue  # Python (`LLM(...)`): no command line to ask `vllm serve`
                argv = shlex.split(example["argv"])
                origin = f"example {rule.id}@{rule.since or ''} {verdict}{n}"
                if not usable(argv):
                    continue
                family = rule.id if rule.id in adopted else "proposed"
                for release in releases:
                    yield Case.make(release, argv, example.get("env"), origin, family=family)


def _yaml_texts() -> Iterator[tuple[str, str]]:
    """(name, text) of every YAML fixture: files under examples/, and YAML string constants
    of the test modules (the documents they write to temporary repos)."""
    for path in sorted((REPO / "examples").rglob("*")):
        if path.is_file() and sniff.kind_of(str(path)) is sniff.Kind.YAML:
            yield str(path.relative_to(REPO)), path.read_text(encoding="utf-8")
    for module in sorted((REPO / "tests").glob("test_*.py")):
        try:
            tree = ast.parse(module.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = textwrap.dedent(node.value).lstrip("\n")
                if "vllm" in text and "\n" in text and ":" in text:
                    yield f"{module.relative_to(REPO)}:{node.lineno}", text


def fixture_invocations() -> Iterator[tuple[str, list[str], dict[str, str]]]:
    """(origin, argv, env) of every readable, fully literal invocation in the fixtures."""
    newest = catalog.catalog_for(catalog.known_releases()[-1])
    for name, text in _yaml_texts():
        try:
            found = extract(
                name + ("" if name.endswith((".yaml", ".yml")) else ".yaml"),
                text,
                sniff.Kind.YAML,
                newest,
            ).invocations
        except Exception:  # a test's string that is not a YAML document
            continue
        for inv in found:
            if inv.partial or any(t.opaque for t in inv.argv):
                continue
            argv = [t.text for t in inv.argv]
            if not argv or "--config" in argv or any(a.startswith("--config=") for a in argv):
                continue  # a --config file is read from the repo; the oracle gets argv only
            env = passed_env({k: t.text for k, t in inv.env.items() if not t.opaque})
            line = inv.argv[0].span.line
            yield f"fixture {name}:{line}", argv, env


def fixtures(releases: tuple[str, ...] = RELEASES) -> Iterator[Case]:
    for origin, argv, env in fixture_invocations():
        if not usable(argv):
            continue
        for release in releases:
            yield Case.make(release, argv, env, origin, family="fixture")
