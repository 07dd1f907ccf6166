"""What vllm-lint looks for in a repo by name alone, shared by the folder walk, the
configuration finder, the Action and the quick path (imports nothing: the quick path is
timed on every commit)."""

import os

# Configuration files, nearest first in each folder (a pyproject.toml counts only with a
# [tool.vllm-lint] table).
CONFIG_NAMES = (".vllm-lint.yaml", ".vllm-lint.yml", "pyproject.toml")


def config_files(folder: str) -> tuple[list[str], bool]:
    """The configuration files a folder holds (paths, in CONFIG_NAMES order; links followed,
    anything but a regular file left out) and whether it is the top of a repository (it holds
    `.git`, where the search upward stops). One listing: this runs for every linted folder."""
    try:
        names = set(os.listdir(folder))
    except OSError:
        return [], False
    found = [os.path.join(folder, n) for n in CONFIG_NAMES if n in names]
    return [path for path in found if os.path.isfile(path)], ".git" in names


# Folders a walk never enters, and the default `exclude` of a configuration.
SKIPPED_FOLDERS = (
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
)

# A file larger than this is not read (a configuration's `max-file-size` changes it).
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
