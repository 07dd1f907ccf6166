#!/usr/bin/env python3
"""One command when vLLM publishes a release: regenerate everything read from its wheel.

    python -m tools.new_release 0.35.0              # add it (or replace its minor's patch), then
                                                    # regenerate and print what is left to do
    python -m tools.new_release 0.35.0 --dry-run    # only say what would change
    python -m tools.new_release 0.34.1 --no-download  # the wheel is already in --cache-dir

Steps, in order (each tool is documented in tools/README.md):

1. ``RELEASES`` in tools/extract_flags.py gets the release: a new minor is appended, a new
   patch of a known minor replaces that minor's entry (the catalogs keep the newest patch
   of every minor);
2. ``python tools/extract_flags.py``: the flag catalogs of every release (``schemas/flags/``:
   a delta per release, so all are rewritten; sources are cached in /tmp/vllm-src);
3. ``python -m tools.mine_validation``, ``python -m tools.mine_envs`` for the release
   (``schemas/validation/``, ``schemas/envs/``; a replaced patch's files are removed);
4. ``python -m tools.mine_raises`` for the release (``tools/coverage/``) and
   ``docs/coverage.md``; then ``python -m tools.lift_raises`` over every release (the guards
   of the sites no rule covers, ``schemas/lifted.json``: a condition is shipped only once
   vLLM's verdicts confirm it, ``tools/conformance/lifted.py``) and ``python -m
   tools.mine_raises --relabel`` (the ``lifted`` column of the coverage page);
5. the conformance verdicts: when the release's oracle environment exists
   (``VLLM_VERSION=X bash ../shared/oracle/setup.sh``), the release joins ``RELEASES`` of
   tools/conformance/cases.py, vLLM is asked about every case not yet recorded (rule examples,
   fixtures, generated and mined cases: ``python -m tools.conformance record``) and
   docs/conformance.md is rewritten (``report --write``); ``--no-conformance`` skips it;
6. a summary of what changed (flags added/removed, classes, env vars, coverage) and the
   manual steps that remain (renamed flags, tests, disagreements with vLLM to explain).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

try:
    from tools import extract_flags as ef
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools import extract_flags as ef
from vllm_lint import release_data

REPO = Path(__file__).resolve().parent.parent
EXTRACT = REPO / "tools" / "extract_flags.py"
RELEASE_RE = re.compile(r"^\d+\.\d+\.\d+(\.post\d+)?$")


def planned_releases(release: str, current: tuple[str, ...]) -> tuple[list[str], str | None]:
    """RELEASES with ``release`` in place (every patch release is kept), and the release it
    replaces: none since the catalogs hold every patch."""
    return sorted({*current, release}, key=ef.version_key), None


def write_releases(releases: list[str]) -> bool:
    """Rewrite the RELEASES tuple of tools/extract_flags.py; False when unchanged."""
    text = EXTRACT.read_text(encoding="utf-8")
    body = "".join(f'    "{r}",\n' for r in releases)
    new, n = re.subn(
        r"RELEASES: tuple\[str, \.\.\.\] = \(\n(?:    \"[^\"]+\",\n)+\)",
        f"RELEASES: tuple[str, ...] = (\n{body})",
        text,
        count=1,
    )
    if n != 1:
        raise RuntimeError("RELEASES not found in tools/extract_flags.py")
    if new == text:
        return False
    EXTRACT.write_text(new, encoding="utf-8")
    return True


CONFORMANCE_CASES = REPO / "tools" / "conformance" / "cases.py"


def write_conformance_release(release: str) -> bool:
    """Add `release` to RELEASES of tools/conformance/cases.py; False when it is there."""
    text = CONFORMANCE_CASES.read_text(encoding="utf-8")
    match = re.search(r"^RELEASES = \(([^)]*)\)", text, re.MULTILINE)
    if match is None:
        raise RuntimeError("RELEASES not found in tools/conformance/cases.py")
    known = re.findall(r'"([^"]+)"', match.group(1))
    if release in known:
        return False
    body = ", ".join(f'"{r}"' for r in sorted([*known, release], key=ef.version_key))
    CONFORMANCE_CASES.write_text(
        text[: match.start()] + f"RELEASES = ({body})" + text[match.end() :], encoding="utf-8"
    )
    return True


def oracle_ready(release: str) -> bool:
    """Whether the oracle environment of `release` exists on this machine."""
    sys.path.insert(0, str(REPO / "hooks"))
    from tools.conformance import oracle

    try:
        oracle.check_environment(release)
    except oracle.OracleError as exc:
        print(f"conformance skipped: {exc}")
        return False
    return True


def run(cmd: list[str], dry: bool) -> None:
    print("$ " + " ".join(cmd), flush=True)
    if not dry:
        import os

        path = os.pathsep.join(p for p in (str(REPO / "hooks"), os.environ.get("PYTHONPATH")) if p)
        subprocess.run(cmd, cwd=REPO, check=True, env={**os.environ, "PYTHONPATH": path})


def catalog_delta(release: str) -> dict[str, Any]:
    path = REPO / "schemas" / "flags" / f"{release}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def summary(release: str, replaced: str | None) -> list[str]:
    lines = [f"vLLM {release}" + (f" (replaces {replaced})" if replaced else "") + ":"]
    delta = catalog_delta(release)
    if delta:
        lines.append(
            f"  flags: {len(delta.get('added', {}))} added, {len(delta.get('removed', []))} "
            f"removed, {len(delta.get('changed', {}))} changed since {delta.get('previous')}"
        )
    v = release_data.load_in(REPO / "schemas" / "validation", release)
    if v is not None:
        classes = v["classes"]
        bounded = sum(
            1
            for c in classes.values()
            for f in c["fields"].values()
            if any(k in f for k in ("gt", "ge", "lt", "le", "multiple_of"))
        )
        forbid = sum(1 for c in classes.values() if c["extra"] == "forbid")
        lines.append(
            f"  validation: {len(v['flags'])} validated flags, {len(v['json_flags'])} JSON "
            f"flags, {len(classes)} classes ({forbid} forbid unknown keys), {bounded} "
            "bounded fields"
        )
    e = release_data.load_in(REPO / "schemas" / "envs", release)
    if e is not None:
        lines.append(f"  env vars: {len(e['variables'])}")
    cpath = REPO / "tools" / "coverage" / f"{release}.json"
    if cpath.is_file():
        s = json.loads(cpath.read_text(encoding="utf-8"))["summary"]
        lines.append(
            f"  raise sites: {s['sites']}: {s['rule']} by a rule, {s['mined']} mined, "
            f"{s['reason']} with a reason, {s['uncovered']} uncovered"
        )
    return lines


def todo(release: str, replaced: str | None, removed: list[str]) -> list[str]:
    steps = [
        "Left to do by hand:",
        "  1. Review `git diff schemas/flags/` and extend the expectations of "
        "tests/test_catalog.py (known_releases).",
    ]
    if removed:
        steps.append(
            f"  2. Removed flags need a row in schemas/renamed-flags.json ({', '.join(removed)}), "
            "then `python tools/render_removed_flags.py --write`."
        )
    else:
        steps.append("  2. No flag removed: schemas/renamed-flags.json stays as it is.")
    steps += [
        f"  3. Read the uncovered sites of tools/coverage/{release}.json (docs/coverage.md): "
        "new refusals are candidates for rules; add the release's file:line to the `source` "
        "of the rules that still hold (schemas/rules/<area>/*.json), then "
        "`python -m tools.mine_raises --releases " + release + "` again.",
        "  4. Conformance with vLLM itself (docs/conformance.md): without an oracle environment, "
        f"build it (`VLLM_VERSION={release} bash ../shared/oracle/setup.sh`) and run this "
        "command again; then explain every disagreement the report lists (fix the rule or add "
        "a reason to tools/conformance/known.json). Lifted conditions new in "
        "schemas/lifted.json ship only once vLLM confirms them: `python -m "
        "tools.conformance.lifted` (tools/README.md), then `python -m tools.lift_raises` and "
        "`python -m tools.mine_raises --relabel` again.",
        "  5. `python -m pytest` (once), `python -m tools.mine_validation --check`, "
        "`python -m tools.mine_envs --check`, `python -m tools.mine_raises --check`.",
    ]
    if replaced:
        steps.append(
            f"  6. {replaced} is gone from the catalogs: rules whose `since`/`before` or "
            f"examples name {replaced} may need {release}."
        )
    return steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("release", help="e.g. 0.35.0")
    ap.add_argument("--dry-run", action="store_true", help="print the steps, change nothing")
    ap.add_argument("--no-download", action="store_true", help="use the cached wheels only")
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument(
        "--no-conformance", action="store_true", help="do not ask the oracle (vLLM itself)"
    )
    ns = ap.parse_args(argv)
    release = ns.release
    if not RELEASE_RE.match(release):
        ap.error(f"not a release number: {release}")
    releases, replaced = planned_releases(release, ef.RELEASES)
    print(f"RELEASES: {', '.join(releases)}")
    if not ns.dry_run:
        # fetch the new wheel first: nothing is rewritten if it does not exist
        ef.ensure_source(release, ns.cache_dir, ns.src_dir, not ns.no_download)
        write_releases(releases)
        if replaced:
            for folder in ("schemas/validation", "schemas/envs", "tools/coverage"):
                stale = REPO / folder / f"{replaced}.json"
                if stale.is_file():
                    stale.unlink()
                    print(f"removed {folder}/{replaced}.json")
    py = sys.executable
    common = ["--cache-dir", str(ns.cache_dir), "--src-dir", str(ns.src_dir)]
    if ns.no_download:
        common.append("--no-download")
    run([py, "tools/extract_flags.py", *common], ns.dry_run)
    for tool in ("tools.mine_validation", "tools.mine_envs", "tools.mine_raises"):
        run([py, "-m", tool, "--releases", release, *common], ns.dry_run)
    # the lifter writes one file over every release (their sources are unpacked above)
    run([py, "-m", "tools.lift_raises", *common], ns.dry_run)
    run([py, "-m", "tools.mine_raises", "--relabel"], ns.dry_run)
    # the Python API of every catalogued release (from the sources extract_flags unpacked)
    run([py, "tools/extract_python_api.py", "--src-dir", str(ns.src_dir)], ns.dry_run)
    if not ns.no_conformance and oracle_ready(release):
        if not ns.dry_run and write_conformance_release(release):
            print(f"tools/conformance/cases.py: RELEASES gets {release}")
        conformance = [py, "-m", "tools.conformance"]
        run([*conformance, "record", "--release", release, "--prune"], ns.dry_run)
        run([*conformance, "report", "--write"], ns.dry_run)
    print()
    if not ns.dry_run:
        print("\n".join(summary(release, replaced)))
        print()
    removed = list(catalog_delta(release).get("removed", [])) if not ns.dry_run else []
    print("\n".join(todo(release, replaced, removed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
