"""Markdown and MDX documentation: the launches in its fenced code blocks (```bash, ```console,
```yaml, ```dockerfile, ```python, untagged …), with each place in the `.md` file. A block
inside an HTML comment is not read; `<!-- vllm-lint: ignore[…] reason -->` (MDX:
`{/* … */}`) before a block silences its findings (rules/suppress.py)."""

from __future__ import annotations

from collections.abc import Iterator

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation
from vllm_lint.read.fences import markdown_blocks
from vllm_lint.sources.doc_blocks import read_blocks, with_document_release
from vllm_lint.sources.document import Document


def find(doc: Document) -> Iterator[Invocation]:
    blocks = list(markdown_blocks(doc.text))
    found = read_blocks(doc, blocks, FilePositions(doc.path, doc.text))
    spans = [(b.line + 1, b.end_line + 1) for b in blocks]
    yield from with_document_release(found, doc.text, spans)
