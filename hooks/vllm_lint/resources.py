"""Where the shipped data (rule schemas, flag catalogs) lives."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def schemas_dir() -> Path:
    """The `schemas/` folder: inside the installed package, else beside `hooks/` in a checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "schemas"
    if installed.is_dir():
        return installed
    return here.parents[1] / "schemas"
