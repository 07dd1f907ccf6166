"""How much of the verdict lives in Python rather than in the rule schemas (issue 26).

Three figures, read from the checkout (nothing is imported from the package's derive code,
nothing is run):

- derived verdicts: `derived.*` values whose rule decides on them alone — a rule variant whose
  whole `rejects` is `derived.X` equal to a constant, so the Python value *is* the verdict
  (VL222: `derived.dp_rank_ambiguous == true`); and the wider count of `derived.*` values any
  rule compares with a boolean constant;
- rules on derived values: rule files (ids) and variants whose `rejects` or `flags` read a
  `derived.*` value, of all rule files and variants with a `rejects`;
- release comparisons in `effective/derive/`: comparisons with a release written in Python (a
  literal release tuple such as `(0, 27, 0)`), each operator counted once. Release ranges kept as
  data (`schemas/feature-lists.json`, applied by one generic comparison) are not counted.

    python -m tools.verdict_counts            # a table
    python -m tools.verdict_counts --json     # the same as JSON (for a closing note, CI)
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "schemas" / "rules"
DERIVE = ROOT / "hooks" / "vllm_lint" / "effective" / "derive"


def _variants(rules_dir: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    for path in sorted(rules_dir.rglob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")).get("rules", []):
            if entry.get("rejects") is not None:
                yield path, entry


def _derived_consts(schema: Any) -> Iterator[tuple[str, Any]]:
    """(name, constant) for every `derived.<name>` the schema compares with `const`."""
    if isinstance(schema, dict):
        derived = schema.get("properties", {}).get("derived")
        if isinstance(derived, dict):
            for name, test in derived.get("properties", {}).items():
                if isinstance(test, dict) and "const" in test:
                    yield name, test["const"]
        for value in schema.values():
            yield from _derived_consts(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _derived_consts(value)


def _is_one_derived_test(rejects: Any) -> str | None:
    """The derived value's name when the whole schema is `derived.<name> == constant` (with
    its `required` lists), else None."""
    if not isinstance(rejects, dict) or set(rejects) - {"properties", "required"}:
        return None
    props = rejects.get("properties", {})
    if set(props) != {"derived"}:
        return None
    inner = props["derived"]
    if not isinstance(inner, dict) or set(inner) - {"properties", "required"}:
        return None
    tests = inner.get("properties", {})
    if len(tests) != 1:
        return None
    ((name, test),) = tests.items()
    return name if isinstance(test, dict) and set(test) == {"const"} else None


def rule_counts(rules_dir: Path = RULES) -> dict[str, Any]:
    verdicts: set[str] = set()
    booleans: set[str] = set()
    ids: set[str] = set()
    on_derived_ids: set[str] = set()
    variants = on_derived = 0
    for _, entry in _variants(rules_dir):
        variants += 1
        ids.add(entry["id"])
        text = json.dumps([entry["rejects"], entry.get("flags", [])])
        if '"derived"' in text or "derived." in text:
            on_derived += 1
            on_derived_ids.add(entry["id"])
        name = _is_one_derived_test(entry["rejects"])
        if name is not None:
            verdicts.add(name)
        booleans |= {n for n, c in _derived_consts(entry["rejects"]) if isinstance(c, bool)}
    return {
        "derived_verdicts": sorted(verdicts),
        "derived_booleans_compared": sorted(booleans),
        "rules": len(ids),
        "rules_on_derived": len(on_derived_ids),
        "variants": variants,
        "variants_on_derived": on_derived,
    }


def _is_release(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple) and len(node.elts) >= 2:
        return all(isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts)
    return False


def release_comparisons(derive_dir: Path = DERIVE) -> dict[str, int]:
    """Per module of effective/derive/, the comparison operators with a release operand."""
    counts: dict[str, int] = {}
    for path in sorted(derive_dir.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = 0
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                for a, b in itertools.pairwise(operands):
                    found += _is_release(a) or _is_release(b)
        counts[path.name] = found
    return counts


def measure(rules_dir: Path = RULES, derive_dir: Path = DERIVE) -> dict[str, Any]:
    figures = rule_counts(rules_dir)
    per_module = release_comparisons(derive_dir)
    figures["release_comparisons"] = sum(per_module.values())
    figures["release_comparisons_per_module"] = per_module
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure()
    if args.json:
        json.dump(figures, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    verdicts = figures["derived_verdicts"]
    print(f"derived verdicts (a rule decided by one derived.* constant): {len(verdicts)}")
    print(f"  {', '.join(verdicts)}")
    print(f"derived.* values compared with true/false: {len(figures['derived_booleans_compared'])}")
    print(
        f"rules on derived.*: {figures['rules_on_derived']} of {figures['rules']} "
        f"({figures['variants_on_derived']} of {figures['variants']} variants)"
    )
    print(f"release comparisons in effective/derive/: {figures['release_comparisons']}")
    for module, count in figures["release_comparisons_per_module"].items():
        if count:
            print(f"  {module}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
