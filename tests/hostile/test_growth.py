"""Every stage takes time linear in its input: each shape is linted at size n and 4n, and the
time spent linting (in the child, without the interpreter's start) may grow about fourfold,
not sixteenfold. Each shape below was quadratic or worse before (regexes that rescanned the
rest of a line or file from every start, lists copied on every append, a scan of the stages
or the suppressions per item); at 4n most then took a minute or more.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

SCRIPT = "#!/bin/sh\nvllm serve m\n"
IMAGE = "vllm/vllm-openai:v0.33.0"
# linear: 4x; quadratic: 16x. The slack absorbs a busy machine at small times.
RATIO = 8.0
SLACK = 0.4

NO_BUDGET = "import vllm_lint.files.budget as _budget\n_budget.FILE_SECONDS = 60.0\n"

Shape = Callable[[int], dict[str, str]]
SHAPES: dict[str, tuple[int, Shape]] = {
    # repo pins (requirements, pyproject, Dockerfile), read for a launch without an image tag
    "requirements-open-extras": (
        12000,
        lambda n: {"requirements.txt": "vllm[\n" * n, "s.sh": SCRIPT},
    ),
    "pyproject-open-extras": (
        8000,
        lambda n: {"pyproject.toml": "x = [" + "'vllm[', " * n + "]\n", "s.sh": SCRIPT},
    ),
    "pyproject-many-pins": (
        12000,
        lambda n: {"pyproject.toml": "x = [" + "'vllm==0.8.5', " * n + "]\n", "s.sh": SCRIPT},
    ),
    "dockerfile-pip-installs": (
        1000,
        lambda n: {"Dockerfile": "RUN " + "pip install " * n + "\n", "s.sh": SCRIPT},
    ),
    # Dockerfiles
    "dockerfile-stages": (
        3000,
        lambda n: {"Dockerfile": "".join(f"FROM {IMAGE} AS s{i}\nCMD [m]\n" for i in range(n))},
    ),
    "dockerfile-run-pins": (
        1000,
        lambda n: {"Dockerfile": f"FROM {IMAGE}\nRUN " + "pip install vllm " * n + "\n"},
    ),
    # one argv: every removed flag asked for the flags the launch writes (fuzz_sources found it)
    "removed-flags": (
        1000,
        lambda n: {"s.sh": "#!/bin/sh\nvllm serve m " + "--use-v2-block-manager " * n + "\n"},
    ),
    # template maskers
    "terraform-directives": (2000, lambda n: {"t.yaml.tpl": "# vllm\n" + "%{if \n" * n}),
    "terraform-expressions": (12000, lambda n: {"t.yaml.tpl": "# vllm\na: " + "${" * n + "\n"}),
    # a Go template's block-scalar lines (read/templates.py): a long line of list dashes
    "go-template-dashes": (
        8000,
        lambda n: {"d.yaml.tpl": "# vllm\nargs:\n  - {{ .Values.x }}\n  - " + "- " * n + "| x\n"},
    ),
    # derived values
    "image-tags": (
        4000,
        lambda n: {
            "d.yaml": f"services: {{s: {{image: 'vllm/vllm-openai{':1.1.1' * n}/', command: [m]}}}}\n"
        },
    ),
    # shell
    "shell-appends": (
        6000,
        lambda n: {"s.sh": "#!/bin/sh\n" + "A+=xxxxxxxxxx\n" * n + "vllm serve m $A\n"},
    ),
    "shell-array-appends": (
        16000,
        lambda n: {"s.sh": "#!/bin/bash\n" + "A+=(x)\n" * n + "vllm serve m ${A[@]}\n"},
    ),
    "shell-exports": (
        9000,
        lambda n: {
            "s.sh": "#!/bin/sh\n"
            + "".join(f"export V{i}=1\necho\n" for i in range(n))
            + "vllm serve m\n"
        },
    ),
    "shell-substitutions": (
        32000,
        lambda n: {"s.sh": "#!/bin/sh\nvllm serve m " + "$(a) " * n + "\n"},
    ),
    # YAML
    "merge-chain": (
        3000,
        lambda n: {
            "m.yaml": "# vllm\nm0: &m0 {k0: 0}\n"
            + "".join(f"m{i}: &m{i} {{<<: *m{i - 1}, k{i}: {i}}}\n" for i in range(1, n))
        },
    ),
    "suppressions": (
        1500,
        lambda n: {
            "c.yaml": "services:\n"
            + "".join(
                f"  s{i}: {{image: {IMAGE}, command: [m, --bogus]}}  # vllm-lint: ignore[VL001] r\n"
                for i in range(n)
            )
        },
    ),
    "kubernetes-documents": (
        1000,
        lambda n: {
            "k.yaml": "".join(
                f"---\nkind: Pod\nspec:\n  containers:\n  - image: {IMAGE}\n    args: [m, --max-model-len, '1']\n"
                for _ in range(n)
            )
        },
    ),
}


def _seconds(root: Path, files: dict[str, str]) -> float:
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    # the time budget would stop a slow file early (VL908) and make a quadratic stage look
    # linear: it is raised here, and a file that still runs out of it fails
    child = lint(root, "--format", "json", ".", prelude=NO_BUDGET, seconds=120)
    budget = [f for f in json.loads(child.out)["findings"] if f["rule"] == "VL908"]
    assert not budget, f"the file ran out of its time budget: {budget[0]['message']}"
    return child.seconds


@pytest.mark.parametrize("shape", list(SHAPES))
def test_time_grows_linearly(tmp_path: Path, shape: str) -> None:
    n, make = SHAPES[shape]
    small = _seconds(tmp_path / "n", make(n))
    large = _seconds(tmp_path / "4n", make(4 * n))
    assert large <= RATIO * small + SLACK, f"{shape}: {small:.3f} s at n={n}, {large:.3f} s at 4n"


SLOW = """
import vllm_lint.files.budget as _budget
import vllm_lint.pipeline as _pipeline
_budget.FILE_SECONDS = 1.0
_check = _pipeline.check_file
def _slow(result, text, options):
    if result.path.endswith("slow.yaml"):
        while True:
            pass
    return _check(result, text, options)
_pipeline.check_file = _slow
"""


def test_a_file_past_its_time_budget_is_a_finding_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "slow.yaml").write_text(f"services: {{s: {{image: {IMAGE}, command: [m]}}}}\n")
    (tmp_path / "ok.yaml").write_text(
        f"services: {{s: {{image: {IMAGE}, command: [m, --bogus]}}}}\n"
    )
    data = json.loads(lint(tmp_path, "--format", "json", ".", prelude=SLOW).out)
    found = sorted((f["rule"], f["path"], f["message"]) for f in data["findings"])
    assert found[0][:2] == ("VL001", "ok.yaml")
    assert found[1] == ("VL908", "slow.yaml", "linting it took more than 1 s; not checked")
