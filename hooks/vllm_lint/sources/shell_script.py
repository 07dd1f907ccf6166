"""Shell scripts (`*.sh`, `*.bash`, shebang files): every vLLM launch, in order.

Variables the script assigns a literal are resolved (including arrays and `export`ed ones,
which also become the server's environment); `docker run vllm/vllm-openai:vX …` gives the
release from its tag, a `pip install vllm==X` in the script the release of its other launches.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation, ReleaseEvidence
from vllm_lint.read.gpus import escapes_directives
from vllm_lint.read.shell import Sourcer
from vllm_lint.read.variables import install_text
from vllm_lint.release import evidence_in
from vllm_lint.sources import hardware
from vllm_lint.sources.document import Document, read_inside
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in


def find(doc: Document) -> Iterator[Invocation]:
    path, text = doc.path, doc.text
    base = str(Path(path).parent)
    evidence = installed_release(text)  # the script installs the release it then runs
    positions = FilePositions(path, text)
    context = ScriptContext(source=sourcer(path, doc.root))
    directives = hardware.of_directives(text, positions)  # `#SBATCH --gres=gpu:4`
    for launch in launches_in(text, positions, context):
        where = launch.via or "script"
        line = launch.anchor.line
        if directives and not escapes_directives(launch.via):
            launch = launch._replace(gpus=hardware.merged(directives, launch.gpus))
        yield invocation(path, launch, f"{where} line {line}", base, evidence=evidence)


def installed_release(text: str) -> tuple[ReleaseEvidence, ...]:
    """The first `pip install vllm==X` of a script, its variables read (`${VLLM_VERSION}`)."""
    resolved = install_text(text)
    for offset, item in evidence_in(resolved, images=False):
        if item.kind == "pip":
            line = resolved.count("\n", 0, offset) + 1
            return (item._replace(where=f"line {line}"),)
    return ()


MAX_SOURCED = 32  # files a script's `source` lines read (nested ones included); then unknown


def sourcer(path: str, root: Path | None) -> Sourcer:
    """Reads what a script `source`s: a literal path relative to the script's folder (or
    absolute inside the repo); never outside the root."""
    here = Path(path).parent
    left = [MAX_SOURCED]

    def read(name: str) -> tuple[str, str] | None:
        if not name or "$" in name or "`" in name or left[0] <= 0:
            return None
        left[0] -= 1  # a script sourcing one file 100,000 times would re-read it each time
        target = Path(name) if name.startswith("/") else here / name
        text = read_inside(target, root)
        return None if text is None else (text, str(target))

    return read
