"""Exit 3 never comes from input (issue 25): every reader in `SOURCES`, fed its own golden cases
mutated in size, nesting depth, value types, encodings, line endings and file names, gives a
result — exit 0 or 1, nothing on stderr — in every output format, and the formats agree.

The inputs are not written here: each source's cases under `tests/cases/sources/<id>/` are the
seeds, so a reader added next year is fuzzed the day its golden case lands (and a source
without a case fails below). Differential: one child writes JSON and SARIF of the same run,
and both must name the same findings (rule, file, line) — a finding an escaping step lost, or
a file name one format could not encode, shows as a difference.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from childrun import judge, run

from vllm_lint.report import REPORTERS
from vllm_lint.sources.registry import SOURCES

pytestmark = (
    pytest.mark.slow
)  # each source is linted in a child process with time and memory limits

CASES = Path(__file__).resolve().parents[1] / "cases" / "sources"
NOT_INPUT = {"expected.txt", "args.txt", "SOURCES.md"}
SIZE = 24 * 1024  # bytes a grown file reaches: many launches (linear growth: test_growth.py)
SECONDS = 120  # one child lints every mutation of one source's cases

# Lines that are hard for some reader: deep nesting of every bracket a format knows, shell
# expansions inside each other, an odd run of backslashes, a number with thousands of digits,
# a deep YAML block sequence, template actions, and control, bidi and line-separator characters.
HOSTILE_LINES = (
    "[" * 20_000 + "]" * 20_000,
    "{" * 20_000,
    "(" * 5_000 + ")" * 5_000,
    "$(" * 3_000 + ")" * 3_000,
    "${A:-" * 3_000 + "}" * 3_000,
    '"' + "\\" * 10_001,
    "9" * 5_000,
    "- " * 5_000 + "x",
    "{{" * 2_000 + " if .x }}",
    "--max-model-len=" + "1" * 400 + " --x \x1b]0;t\x07 \u202e::error::##[error]\u2028\x85",
)
# What a value may be instead of the number the case has (types a reader may not expect)
VALUES = ("[]", "{}", "null", "1e999", "-1", "0x1F", "9" * 40, '"x"', "true", "~", "NaN")
NUMBER = re.compile(rb"(?<![\w.])\d+(?![\w.])")
# Folder names the report must carry safely: invalid UTF-8, workflow commands, escapes, bidi
HOSTILE_FOLDER = os.fsdecode(b"n\xff\xfe::error::##[warning]\x1b[31m\xe2\x80\xae")


def _seeds(source_id: str) -> list[Path]:
    folder = CASES / source_id
    return sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def _files(case: Path) -> Iterator[tuple[Path, bytes]]:
    for path in sorted(case.rglob("*")):
        if path.is_file() and path.name not in NOT_INPUT:
            yield path.relative_to(case), path.read_bytes()


def _grown(data: bytes, rng: random.Random) -> bytes:
    return (data.rstrip(b"\n") + b"\n") * (SIZE // max(len(data), 1) + 1)


def _deep(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for hostile in rng.sample(HOSTILE_LINES, 4):
        at = rng.randrange(len(lines) + 1)
        indent = re.match(rb"[ \t]*", lines[min(at, len(lines) - 1)]).group()  # type: ignore[union-attr]
        lines.insert(at, indent + hostile.encode("utf-8"))
    return b"\n".join(lines)


def _typed(data: bytes, rng: random.Random) -> bytes:
    return NUMBER.sub(lambda _m: rng.choice(VALUES).encode(), data)


def _utf16(data: bytes, rng: random.Random) -> bytes:
    return data.decode("utf-8", "replace").encode("utf-16")  # with its byte-order mark


def _broken_bytes(data: bytes, rng: random.Random) -> bytes:
    """Invalid UTF-8, a NUL, Latin-1 and a BOM in the middle, at places the seed chooses."""
    cut = list(data)
    for junk in (b"\xff\xfe", b"\x00", b"caf\xe9", b"\xef\xbb\xbf", b"\xc3"):
        at = rng.randrange(len(cut) + 1)
        cut[at:at] = junk
    return bytes(cut)


def _line_ends(data: bytes, rng: random.Random) -> bytes:
    ends = (b"\r\n", b"\r", "\u2028".encode(), b"\x0b", b"\x0c")
    return b"".join(line + rng.choice(ends) for line in data.split(b"\n"))


def _truncated(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(1, max(len(data), 2))]  # an unterminated quote, block or call


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "grown": _grown,
    "deep": _deep,
    "typed": _typed,
    "utf16": _utf16,
    "bytes": _broken_bytes,
    "line-ends": _line_ends,
    "truncated": _truncated,
    HOSTILE_FOLDER: lambda data, rng: data,  # the file as it is, under a hostile folder name
}


def _plant(root: Path, source_id: str) -> int:
    """Every mutation of every case of `source_id` under `root`; how many files."""
    rng = random.Random(f"issue-25:{source_id}")  # the same inputs on every run
    count = 0
    for case in _seeds(source_id):
        for label, mutate in MUTATIONS.items():
            for relative, data in _files(case):
                target = root / label / case.name / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(mutate(data, rng))
                count += 1
    return count


def _json_keys(out: str) -> Counter[tuple[str, str, int]]:
    found = json.loads(out)["findings"]
    return Counter((f["rule"], f["path"], f["line"]) for f in found)


def _sarif_keys(path: Path) -> Counter[tuple[str, str, int]]:
    keys: Counter[tuple[str, str, int]] = Counter()
    for result in json.loads(path.read_text(encoding="utf-8"))["runs"][0]["results"]:
        where = result["locations"][0]["physicalLocation"]
        name = unquote(where["artifactLocation"]["uri"], errors="surrogateescape")
        keys[(result["ruleId"], name, where.get("region", {}).get("startLine", 0))] += 1
    return keys


def _shown(name: str) -> str:
    """A SARIF file name as `--format json` shows it (the gate's escaping for JSON)."""
    from vllm_lint.report.gate import shown

    return shown(name, "json")


OTHER_FORMATS = [name for name in REPORTERS if name not in ("json", "sarif")]


def test_every_source_has_a_seed() -> None:
    missing = [s.id for s in SOURCES if not _seeds(s.id)]
    assert not missing, f"no golden case under tests/cases/sources/<id>/ to fuzz from: {missing}"


@pytest.mark.parametrize("index", range(len(SOURCES)), ids=[s.id for s in SOURCES])
def test_mutated_cases_of_every_source_give_a_result(tmp_path: Path, index: int) -> None:
    source_id = SOURCES[index].id
    root = tmp_path / "repo"
    if not _plant(root, source_id):
        pytest.skip("no seed (test_every_source_has_a_seed fails)")
    sarif = tmp_path / "out.sarif"
    both = judge(run(root, "--format", "json", "--sarif-file", str(sarif), ".", seconds=SECONDS))
    from_json = _json_keys(both.out)
    from_sarif = Counter({(r, _shown(p), n): k for (r, p, n), k in _sarif_keys(sarif).items()})
    assert from_json == from_sarif, (from_json - from_sarif, from_sarif - from_json)
    assert from_json, "the mutations left no finding to compare: the seed launches nothing"
    # every other format on the same input (cycled over the sources), with the job summary
    other = OTHER_FORMATS[index % len(OTHER_FORMATS)]
    summary = tmp_path / "summary.md"
    judge(run(root, "--format", other, "--summary-file", str(summary), ".", seconds=SECONDS))
    shutil.rmtree(root)
