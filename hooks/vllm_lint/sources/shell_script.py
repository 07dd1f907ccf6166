"""Shell scripts (`*.sh`, `*.bash`, shebang files): every vLLM launch, in order.

Variables the script assigns a literal are resolved (including arrays and `export`ed ones,
which also become the server's environment); `docker run vllm/vllm-openai:vX …` gives the
release from its tag.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in


def find(doc: Document) -> Iterator[Invocation]:
    path, text = doc.path, doc.text
    base = str(Path(path).parent)
    for launch in launches_in(text, FilePositions(path, text), ScriptContext()):
        where = launch.via or "script"
        line = launch.anchor.line
        yield invocation(path, launch, f"{where} line {line}", base)
