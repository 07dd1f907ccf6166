"""Where the shipped data (rule schemas, flag catalogs) lives."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=1)
def schemas_dir() -> Path:
    """The `schemas/` folder: inside the installed package, else beside `hooks/` in a checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "schemas"
    if installed.is_dir():
        return installed
    return here.parents[1] / "schemas"


def read_shipped(path: Path) -> str:
    """A file of the shipped data (`schemas/…`, or the folder a tool of tools/ writes): the
    package's own, trusted, so read whole here; a file of the linted repo never comes here
    but through files/reader.py (tests/test_file_reads.py holds both)."""
    return path.read_text(encoding="utf-8")


def shipped_json(*parts: str) -> Any:
    """The JSON document at `schemas/<parts…>`."""
    import json

    return json.loads(read_shipped(schemas_dir().joinpath(*parts)))
