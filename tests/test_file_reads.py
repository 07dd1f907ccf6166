"""One way in: every byte the program reads from a file comes through files/reader.py (regular
files only, capped, never blocking, never through a link out of the repo when the caller says
where the repo is) — linted files, `--config` files, pins and lock files, configurations, rule
packs, the baseline, the rule cache. This test parses every module of the package with `ast`
and fails on any other read outside its short list; a reader added later is covered unedited.
The hostile inputs themselves are tests/hostile/test_one_way_in.py.
"""

from __future__ import annotations

import pytest

from file_calls import scan, strays

# Where a module may read beside files/reader.py, each with why.
ALLOWED = {
    "files/reader.py": "the reader itself",
    "files/writer.py": "opens each folder on the way with O_NOFOLLOW to write through no link; "
    "appends to a report file outside the repo, the caller's",
    "resources.py:read_shipped": "the package's own data (schemas/), never a file of the "
    "linted repo",
    "action_support.py:_sarif_results": "the SARIF file the action itself wrote to the "
    "runner's temporary folder",
}


def test_no_module_reads_a_file_but_through_the_reader() -> None:
    stray, unused = strays("read", ALLOWED)
    assert not stray, "read through hooks/vllm_lint/files/reader.py:\n" + "\n".join(stray)
    assert not unused, f"allowed but no longer reading: {unused}"


@pytest.mark.parametrize(
    "source",
    [
        "def f(p):\n    return open(p).read()\n",
        "def f(p):\n    with open(p, 'rb') as h:\n        return h.read()\n",
        "def f(p):\n    return p.read_text()\n",
        "def f(p):\n    return p.read_bytes()\n",
        "def f(p):\n    return p.open().read()\n",
        "import json\ndef f(h):\n    return json.load(h)\n",
        "import os\ndef f(p):\n    return os.read(os.open(p, os.O_RDONLY), 9)\n",
        "import io\ndef f(p):\n    return io.open(p).read()\n",
        "from pathlib import Path\ndef f(p):\n    return list(map(Path.read_text, p))\n",
        "import tomllib\ndef f(h):\n    return tomllib.load(h)\n",
    ],
)
def test_the_contract_test_sees_every_way_of_reading(source: str) -> None:
    found = scan("new.py", source)
    assert [p for p in found if p.does == "read" and p.where == "new.py:f"], found


def test_the_reader_itself_is_not_mistaken_for_a_read() -> None:
    source = (
        "from vllm_lint.files import reader\nfrom vllm_lint.files.reader import read_bytes\n"
        "def f(p):\n    return reader.read_text(p, 9), read_bytes(p, 9)\n"
    )
    assert scan("new.py", source) == []
