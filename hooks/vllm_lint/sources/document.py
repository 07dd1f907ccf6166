"""What a source reader is given: one decoded file, read once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from vllm_lint.model import Invocation

if TYPE_CHECKING:
    from vllm_lint.argv.catalog import Catalog
    from vllm_lint.read.yaml import YamlFile


@dataclass
class Document:
    """A file as the readers see it.

    `yaml` holds the parsed documents for the YAML readers (a template's masked text for
    templates); `catalog` is the flag catalog of the release the file is read for (which
    keys make a YAML file a vLLM config file, which Ray engine arguments are flags), looked
    up only if a reader asks; `found` holds what the readers before this one found.
    """

    path: str
    text: str
    catalog_of: Callable[[], Catalog]
    yaml: YamlFile | None = None
    found: list[Invocation] = field(default_factory=list)

    @cached_property
    def catalog(self) -> Catalog:
        return self.catalog_of()

    @property
    def yf(self) -> YamlFile:
        """The parsed YAML (only the YAML readers ask, and they run only on YAML)."""
        assert self.yaml is not None, "a YAML reader ran on a file that is not YAML"
        return self.yaml
