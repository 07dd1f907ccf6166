"""Fuzzing with large sizes: thousands of nesting levels, hundreds of digits, 100,000
repetitions of the fragments that once made a stage slow or crash, in every kind of file.

Each case is linted in a child under the limits (tests/hostile/childrun.py) at repetition
count n and 4n: it must give a result (exit 0/1, nothing on stderr) both times, and the time
may grow about fourfold, not sixteenfold. The suite runs a few seeded cases; a longer run:

    python tests/hostile/test_fuzz_large.py --cases 300 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from childrun import judge, run

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

FRAGMENTS = [
    "- ", "[", "{", "{a: ", '{"a":', "? ", ": ", "&a ", "*a ", "<<: *a\n", "$(", "${", "$((",
    "{{", "}}", "%{if ", "%{", "vllm[", "'vllm[", "vllm==", "pip install ", "uv pip install ",
    ":1.1.1", "A+=x\n", "A+=(x)\n", "export V=1\n", "eval ", "cat <<E\n", "\\\n", "'", '"',
    "`", "#", " # vllm-lint: ignore[VL001] r\n", "--max-model-len " + "9" * 310 + ".5k ",
    "9" * 400, "1e400 ", "\u202e", "\r", "\x85", "\u2028", "--speculative-config.a", ".a",
    "\t", ";", "&&", "|", "(", ")", "\x1b[2J", "::error::x\n", "##[error]x ", "FROM x AS a\n",
    "CMD [", "--config ", "vllm serve m ", "```", "```bash\n", ".. code-block:: bash\n", "(",
    "[[", "lambda: ", "f'{", '"""', "\\x", "<!-- vllm-lint: ignore -->\n", "$(MAKE)", "\t",
]  # fmt: skip

IMAGE = "vllm/vllm-openai:v0.33.0"
KINDS: dict[str, tuple[str, str, str]] = {  # file name, text before, text after
    "yaml-flow": ("d.yaml", f"services:\n  s:\n    image: {IMAGE}\n    command: [m, ", "]\n"),
    "yaml-block": ("d.yaml", "# vllm\nx:\n", "\n"),
    "yaml-scalar": ("d.yaml", f"services:\n  s:\n    image: {IMAGE}\n    command: |\n      vllm serve m ", "\n"),
    "shell": ("s.sh", "#!/bin/sh\nvllm serve m ", "\n"),
    "dockerfile": ("Dockerfile", f"FROM {IMAGE}\nRUN ", "\nCMD [m]\n"),
    "template": ("t.yaml.tpl", "# vllm\na: ", "\n"),
    "requirements": ("requirements.txt", "", "\n"),
    "ci": (".gitlab-ci.yml", f"job:\n  image: {IMAGE}\n  script:\n    - vllm serve m ", "\n"),
    "markdown": ("README.md", "# Serve\n\n```bash\nvllm serve m ", "\n```\n"),
    "rst": ("index.rst", ".. code-block:: bash\n\n   vllm serve m ", "\n"),
    "python": ("serve.py", 'import subprocess\nsubprocess.run(["vllm", "serve", "m", "', '"])\n'),
    "makefile": ("Makefile", "serve:\n\tvllm serve m ", "\n"),
}  # fmt: skip
COUNTS = (1_000, 10_000, 25_000)  # n; 4n reaches 100,000 repetitions
MAX_BYTES = 4 * 1024 * 1024  # under the 5 MiB cap at 4n, so that every byte is read
RATIO, SLACK = 8.0, 0.5


@dataclass(frozen=True)
class Case:
    kind: str
    fragment: str
    count: int

    def files(self, count: int) -> dict[str, str]:
        name, before, after = KINDS[self.kind]
        files = {name: before + self.fragment * count + after}
        if name == "requirements.txt":  # read for a launch that names no release
            files["s.sh"] = "#!/bin/sh\nvllm serve m\n"
        return files

    def __str__(self) -> str:
        return f"{self.kind} × {self.count} {self.fragment!r}"


def cases(seed: int, number: int) -> list[Case]:
    rng = random.Random(seed)
    found = []
    while len(found) < number:
        fragment = "".join(rng.sample(FRAGMENTS, rng.randint(1, 3)))
        count = rng.choice(COUNTS)
        while count > 1_000 and len(fragment.encode()) * count * 4 > MAX_BYTES:
            count //= 2
        found.append(Case(rng.choice(list(KINDS)), fragment, count))
    return found


def _lint(case: Case, count: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in case.files(count).items():
            (root / name).write_text(text, newline="")
        return judge(run(root, "--format", "json", ".")).seconds


def check(case: Case) -> tuple[float, float]:
    small = _lint(case, case.count)
    large = _lint(case, 4 * case.count)
    if large > RATIO * small + SLACK:
        pytest.fail(f"{case}: {small:.2f} s at n, {large:.2f} s at 4n")
    return small, large


@pytest.mark.parametrize("case", cases(seed=16, number=10), ids=str)
def test_large_hostile_inputs(case: Case) -> None:
    check(case)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failed = 0
    worst = 0.0
    for number, case in enumerate(cases(args.seed, args.cases), 1):
        try:
            small, large = check(case)
            worst = max(worst, large / max(small, 0.01))
            print(f"{number:4d} ok   {small:6.2f} {large:6.2f}  {case}", flush=True)
        except pytest.fail.Exception as exc:
            failed += 1
            print(f"{number:4d} FAIL {exc}", flush=True)
    print(f"{args.cases} cases, {failed} failed, worst growth x{worst:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    raise SystemExit(main())
