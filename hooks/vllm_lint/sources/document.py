"""What a source reader is given: one decoded file, read once."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from vllm_lint.model import Invocation

if TYPE_CHECKING:
    import ast

    from vllm_lint.argv.catalog import Catalog
    from vllm_lint.read.yaml import YamlFile


class Document:
    """A file as the readers see it.

    `yaml` holds the parsed documents for the YAML readers (a template's masked text for
    templates); `catalog` is the flag catalog of the release the file is read for (which
    keys make a YAML file a vLLM config file, which Ray engine arguments are flags), looked
    up only if a reader asks; `found` holds what the readers before this one found.
    """

    def __init__(
        self,
        path: str,
        text: str,
        catalog_of: Callable[[], Catalog],
        yaml: YamlFile | None = None,
        root: Path | None = None,  # the linted folder: other files are read only inside it
    ) -> None:
        self.path = path
        self.text = text
        self.catalog_of = catalog_of
        self.yaml = yaml
        self.found: list[Invocation] = []
        self.root = root

    def read_other(self, target: Path) -> str | None:
        """Another file of the repo that this one names (a script a Dockerfile copies, a file
        a script sources): its text, or None when it is outside the root, not a regular file,
        too large or not UTF-8. Nothing is ever run."""
        return read_inside(target, self.root)

    @cached_property
    def catalog(self) -> Catalog:
        return self.catalog_of()

    @cached_property
    def python(self) -> ast.Module | None:
        """The text parsed as Python, once for every reader (None: it is not Python)."""
        from vllm_lint.read import pysource

        return pysource.parse(self.text)

    @property
    def yf(self) -> YamlFile:
        """The parsed YAML (only the YAML readers ask, and they run only on YAML)."""
        assert self.yaml is not None, "a YAML reader ran on a file that is not YAML"
        return self.yaml


_OTHER_MAX = 1 << 20


def read_inside(target: Path, root: Path | None) -> str | None:
    """The text of `target` if it lies inside `root` (links resolved), else None: a regular
    file, read capped and never blocking (files/reader.py)."""
    from vllm_lint.files.reader import read_bytes

    try:
        data = read_bytes(target, _OTHER_MAX + 1, inside=root or Path.cwd())
    except (OSError, ValueError):
        return None
    if len(data) > _OTHER_MAX or b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
