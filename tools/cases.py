"""Golden cases (tests/cases/): what the real CLI prints for real input files.

    python -m tools.cases rules        # write every rule's case inputs from its schema examples
    python -m tools.cases rules --check  # exit 1 if a rule's case inputs are stale or missing
    python -m pytest tests/test_cases.py --update-goldens   # then refresh every expected.txt
    python -m tools.cases docs         # rewrite docs/rules.md (each rule with its case output)

A case folder holds input files, an optional `args.txt` file (one CLI argument per line; default
`--show-invocations .`), an optional `env.txt` (`NAME=value` lines: the runner's environment,
e.g. VLLM_LINT_FILE_SECONDS) and `expected.txt`: the exit code and the output, run with the
folder as the working directory. tests/test_cases.py runs them all; docs/rules.md quotes each rule's
case output under the rule.

Rule cases (tests/cases/rules/<area>/VLnnn-<slug>/) are written from the rule's own examples:
`fail.sh` (its first failing example) and `pass.sh` (its first passing one), linted for the first
release of the rule's range (`fail.py` / `pass.py` for a rule of the Python API). The input
rules (VL9xx) and VL023 have no argv examples: their case folders hold real files, written by
hand.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases"
RULE_CASES = CASES / "rules"
DEFAULT_ARGS = ("--show-invocations", ".")


def render(case: Path) -> str:
    """What the CLI prints for a case: `exit N`, then stdout (and stderr, if any)."""
    import io
    import os
    from contextlib import redirect_stderr, redirect_stdout

    from vllm_lint.cli import main

    args_file = case / "args.txt"
    listed = args_file.read_text(encoding="utf-8").split("\n") if args_file.is_file() else []
    args = [a for a in listed if a] or list(DEFAULT_ARGS)
    env_file = case / "env.txt"  # NAME=VALUE lines: the runner's environment for this case
    env = dict(
        line.split("=", 1)
        for line in (env_file.read_text(encoding="utf-8").split("\n") if env_file.is_file() else [])
        if "=" in line
    )
    saved = {name: os.environ.get(name) for name in env}
    out, err = io.StringIO(), io.StringIO()
    previous = Path.cwd()
    os.chdir(case)
    os.environ.update(env)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*args, "--color", "never"])
    finally:
        os.chdir(previous)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    text = f"exit {code}\n{out.getvalue()}"
    return text + (f"--- stderr\n{err.getvalue()}" if err.getvalue() else "")


def all_cases() -> list[Path]:
    return sorted(p.parent for p in CASES.rglob("expected.txt"))


# -- rule cases from the rules' examples ----------------------------------------------------------


def rule_case_folder(rule: Any) -> Path:
    """tests/cases/rules/<area>/<ID>-<slug> (the area is the rule file's folder)."""
    return RULE_CASES / Path(rule.origin).parent.name / f"{rule.id}-{rule.slug}"


def _first_release(rule: Any) -> str:
    from vllm_lint import release

    # a rule without `since` was written against the catalogs of 0.8.5.post1 and later (the
    # oldest before every release from 0.2.0 was catalogued): its cases stay there
    inside = [
        r
        for r in release.known_releases()
        if rule.applies_to(r) and (rule.since or release.full_key(r) >= (0, 8, 5, 1))
    ]
    if rule.since and inside and release.key(inside[0])[:2] == release.key(rule.since)[:2]:
        return str(rule.since)  # the exact first release, e.g. 0.27.0 rather than 0.27.1
    return inside[0]


def _script(rule: Any, verdict: str, example: Mapping[str, Any] | str, release: str) -> str:
    example = {"argv": example} if isinstance(example, str) else example
    env = " ".join(f"{k}={v}" for k, v in example.get("env", {}).items())
    what = "refuses" if verdict == "fail" else "accepts"
    if "python" in example:  # what only the Python API refuses: a Python file
        return (
            f"# {rule.id} {rule.slug}: Python that vLLM {release} {what} (written by\n"
            f"# `python -m tools.cases rules` from {Path(rule.origin).relative_to(REPO)})\n"
            f"{example['python']}\n"
        )
    return (
        "#!/bin/sh\n"
        f"# {rule.id} {rule.slug}: a launch vLLM {release} {what} (written by\n"
        f"# `python -m tools.cases rules` from {Path(rule.origin).relative_to(REPO)})\n"
        f"{env + ' ' if env else ''}vllm serve {example['argv']}\n"
    )


def rule_case_files() -> Iterator[tuple[Path, str]]:
    """(path, text) of every file of every generated rule case."""
    from vllm_lint.rules.registry import builtin_rules

    seen: set[str] = set()
    for rule in builtin_rules():
        if rule.id in seen or not rule.examples.get("fail"):
            continue
        seen.add(rule.id)
        example_release = rule.examples["fail"][0]
        pinned = example_release.get("releases") if isinstance(example_release, dict) else None
        release = pinned[0] if pinned else _first_release(rule)
        folder = rule_case_folder(rule)
        yield folder / "args.txt", f"--vllm-version\n{release}\n--no-config\n.\n"
        fail = rule.examples["fail"][0]
        yield folder / f"fail{_suffix(fail)}", _script(rule, "fail", fail, release)
        passes = rule.examples.get("pass", [])
        if passes:
            yield folder / f"pass{_suffix(passes[0])}", _script(rule, "pass", passes[0], release)


def _suffix(example: Mapping[str, Any] | str) -> str:
    return ".py" if isinstance(example, Mapping) and "python" in example else ".sh"


def rule_outputs() -> dict[str, str]:
    """Rule id → what vllm-lint prints for the rule's case (its expected.txt, without the exit
    code line)."""
    outputs = {}
    for expected in sorted(RULE_CASES.glob("*/*/expected.txt")):
        rule_id = expected.parent.name.partition("-")[0]
        outputs[rule_id] = expected.read_text(encoding="utf-8").partition("\n")[2]
    return outputs


def rules_reference() -> str:
    """docs/rules.md as it must read."""
    from vllm_lint.rules.docs import reference

    return reference(rule_outputs())


DOCS = REPO / "docs" / "rules.md"
README = REPO / "README.md"
_COUNTS = re.compile(r"(<!-- rule-counts:[^\n]*-->\n)(.*?)(<!-- /rule-counts -->)", re.S)


def counts_sentence() -> str:
    """README's sentence of how many rules cover how many releases."""
    from vllm_lint import release
    from vllm_lint.rules.registry import builtin_rules

    rules = builtin_rules()
    ids = {r.id for r in rules}
    checks = {r.id for r in rules if r.rejects is not None}
    known = [release.normalize(r) for r in release.known_releases()]
    return (
        f"**{len(ids)} rules** over **{len(known)} vLLM releases ({known[0]} to {known[-1]})**: "
        f"{len(checks)} checks of flag combinations that\nvLLM refuses at startup, and "
        f"{len(ids - checks)} checks of the flags and files themselves.\n"
    )


def readme_with_counts(text: str) -> str:
    return _COUNTS.sub(lambda m: m.group(1) + counts_sentence() + m.group(3), text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.cases")
    parser.add_argument("what", choices=("rules", "docs"))
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    ns = parser.parse_args(argv)
    if ns.what == "docs":
        current = DOCS.read_text(encoding="utf-8") if DOCS.is_file() else ""
        readme = README.read_text(encoding="utf-8")
        if ns.check:
            fresh = current == rules_reference() and readme == readme_with_counts(readme)
            return 0 if fresh else 1
        DOCS.write_text(rules_reference(), encoding="utf-8")
        README.write_text(readme_with_counts(readme), encoding="utf-8")
        return 0
    stale = []
    for path, text in rule_case_files():
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not ns.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            expected = path.parent / "expected.txt"
            if not expected.exists():
                expected.write_text("", encoding="utf-8")
    for path in stale:
        print(f"{'stale' if ns.check else 'wrote'} {path.relative_to(REPO)}")
    if stale and not ns.check:
        print("now: python -m pytest tests/test_cases.py --update-goldens, and review the diff")
    return 1 if ns.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
