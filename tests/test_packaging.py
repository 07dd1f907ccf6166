"""The wheel holds every package of the source tree (pyproject lists them by hand, because
hooks/vllm_lint and schemas/ are mapped into one installed package)."""

from __future__ import annotations

import sys

from conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    root = REPO / "hooks"
    found = {".".join(init.parent.relative_to(root).parts) for init in root.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages"
