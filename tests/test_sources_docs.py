"""Markdown, MDX, reStructuredText and notebooks (sources/markdown.py, rst.py, notebook.py,
doc_blocks.py): the launches in their code blocks, with the exact line and column in the
documentation file, the release the page names, placeholders and suppressions."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.files.sniff import Kind, kind_of, worth_parsing
from vllm_lint.read.fences import markdown_blocks, rst_blocks
from vllm_lint.release import evidence_choice


def test_fences_keep_where_each_line_starts() -> None:
    text = 'intro\n\n1. step\n\n    ```bash title="x"\n    vllm serve m\n      --x 1\n    ```\n'
    [block] = markdown_blocks(text)
    assert block.lang == "bash"
    assert block.text == "vllm serve m\n  --x 1\n"  # the fence's indent is removed, no more
    assert [text[o : o + 4] for o in block.origins] == ["vllm", "  --"]
    assert (block.line, block.end_line) == (4, 7)


def test_fences_of_tildes_longer_markers_and_unclosed_ones() -> None:
    text = "~~~ {.sh}\na\n~~~\n````md\n```bash\nb\n```\n````\n```yaml\nc: 1\n"
    blocks = list(markdown_blocks(text))
    assert [(b.lang, b.text) for b in blocks] == [
        ("sh", "a\n"),
        ("md", "```bash\nb\n```\n"),  # a fence inside a longer one is its text
        ("yaml", "c: 1\n"),  # unclosed: to the end of the document
    ]


def test_fences_inside_html_comments_are_not_read() -> None:
    text = (
        "<!--\n```bash\nvllm serve old\n```\n-->\n<!-- one line -->\n```bash\nvllm serve new\n```\n"
    )
    assert [b.text for b in markdown_blocks(text)] == ["vllm serve new\n"]


def test_rst_directives_options_and_literal_blocks() -> None:
    text = (
        "Title\n=====\n\n.. code-block:: console\n   :caption: run\n\n   $ vllm serve m\n\n"
        "text\n\n.. highlight:: bash\n\nLiteral::\n\n    vllm serve n\n\nend\n"
    )
    blocks = list(rst_blocks(text))
    assert [(b.lang, b.text) for b in blocks] == [
        ("console", "$ vllm serve m\n"),
        ("bash", "vllm serve n\n"),
    ]
    assert text[blocks[0].origins[0] :].startswith("$ vllm serve m")


def test_shell_blocks_with_env_continuations_and_comments(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "README.md",
        """
        # Serve

        ```bash
        # start it
        HF_HUB_OFFLINE=1 vllm serve Qwen/Qwen3-8B \\
          --tensor-parallel-size 2 &
        ```
        """,
    )
    [inv] = launches(page)
    assert where(inv) == (5, 18)
    assert words(inv) == [("Qwen/Qwen3-8B", 5, 29), ("--tensor-parallel-size", 6, 3), ("2", 6, 26)]
    assert inv.env["HF_HUB_OFFLINE"].text == "1"
    assert inv.origin == "```bash block"


def test_console_blocks_read_prompt_lines_only(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "guide.md",
        """
        ```console
        (venv) user@host:~$ vllm serve m \\
        >   --max-model-len 4096
        INFO: vllm serve m --max-model-len oops
        $ vllm serve n --port 8001
        ```

        ```bash
        $ vllm serve o --seed 1
        ```
        """,
    )
    found = launches(page)
    assert [where(i) for i in found] == [(2, 21), (5, 3), (9, 3)]
    assert words(found[0]) == [("m", 2, 32), ("--max-model-len", 3, 5), ("4096", 3, 21)]
    assert not any(t.text == "oops" for i in found for t in i.argv)


def test_placeholders_are_unknown_values_not_findings(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "README.md",
        """
        ```bash
        vllm serve <model> --max-model-len <n_of_tokens>  # your length
        vllm serve [MODEL-PATH] --tensor-parallel-size {TP}
        vllm serve ... --tool-call-parser hermes --enable-auto-tool-choice
        vllm serve $MODEL --quantization {{ quant }}
        ```
        """,
    )
    result = lint(page)
    assert [where(i) for i in result.invocations] == [(2, 1), (3, 1), (4, 1), (5, 1)]
    opaque = [[t.text for t in i.argv if t.opaque] for i in result.invocations]
    assert opaque == [
        ["<model>", "<n_of_tokens>"],
        ["[MODEL-PATH]", "{TP}"],
        ["..."],
        ["$MODEL", "{{ quant }}"],
    ]
    assert result.findings == []


def test_text_blocks_are_read_when_they_start_with_a_launch(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "README.md",
        """
        ```text
        vllm serve m --swap-space 4
        ```

        ```text
        INFO 05-01 vllm serve m --swap-space 4 (a log)
        ```
        """,
    )
    assert [where(i) for i in launches(page)] == [(2, 1)]


def test_yaml_dockerfile_and_untagged_manifest_blocks(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "deploy.md",
        """
        ```
        apiVersion: v1
        kind: Pod
        metadata: {name: vllm}
        spec:
          containers:
            - name: server
              image: vllm/vllm-openai:v0.9.2
              args: ["--model", "m", "--max-model-len", "8192"]
        ```

        ```Dockerfile
        FROM vllm/vllm-openai:v0.10.2
        CMD ["--model", "m"]
        ```
        """,
    )
    pod, docker = launches(page)
    assert pod.origin == "``` block: Pod/vllm container server"
    assert ("--max-model-len", 9, 31) in words(pod)
    assert evidence_choice(pod) is not None and evidence_choice(pod).version == "0.9.2"
    assert evidence_choice(docker) is not None
    assert evidence_choice(docker).reason == "image tag vllm/vllm-openai:v0.10.2 (FROM, line 13)"


def test_python_blocks_are_one_program(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "offline.md",
        """
        ```python
        from vllm import LLM
        ```

        Later, without the import:

        ```python
        llm = LLM(model="m", max_model_len=4096)
        ```

        ```python
        this is not python(
        ```
        """,
    )
    [inv] = launches(page)
    assert where(inv) == (8, 7)
    assert ("--max-model-len", 8, 22) in words(inv)


def test_the_release_a_page_names(tmp_path: Path) -> None:
    page = write(
        tmp_path,
        "README.md",
        """
        ```bash
        pip install vllm==0.10.1
        ```

        ```bash
        vllm serve a
        ```

        ```bash
        pip install "vllm==0.9.2"
        vllm serve b
        ```

        ```bash
        docker run vllm/vllm-openai:v0.8.5 --model c
        vllm serve d
        ```
        """,
    )
    hints = [
        (evidence_choice(i).version, evidence_choice(i).reason)
        for i in launches(page)
        if evidence_choice(i)
    ]
    assert hints == [
        ("0.10.1", "pip install vllm==0.10.1 (line 2)"),  # before it in the page
        ("0.9.2", "pip install vllm==0.9.2 (line 10)"),  # in its own block
        ("0.8.5", "image tag vllm/vllm-openai:v0.8.5"),  # its own image
        ("0.8.5", "image tag vllm/vllm-openai:v0.8.5 (line 15)"),
    ]


def test_a_comment_before_a_block_silences_the_whole_block(tmp_path: Path) -> None:
    write(
        tmp_path,
        "README.md",
        """
        <!-- vllm-lint: ignore[VL002] the old command, shown on purpose -->
        ```bash
        vllm serve m \\
          --swap-space 4
        ```

        ```bash
        vllm serve m --swap-space 4
        ```
        """,
    )
    write(
        tmp_path,
        "page.mdx",
        """
        {/* vllm-lint: ignore[removed-flag] shown on purpose */}

        ```bash
        vllm serve m --swap-space 4
        ```
        """,
    )
    write(
        tmp_path,
        "guide.rst",
        """
        .. vllm-lint: ignore[VL002] shown on purpose

        .. code-block:: bash

           vllm serve m --swap-space 4
        """,
    )
    run = run_cli("--format", "json", ".", cwd=tmp_path)
    assert [(f["path"], f["line"], f["rule"]) for f in run.findings()] == [
        ("README.md", 8, "VL002")
    ]


def test_notebooks_point_at_the_line_of_the_ipynb(tmp_path: Path) -> None:
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ['## Run "it" \u2713\n', "```bash\n", "vllm serve m --port 8000\n", "```"],
        },
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [
                {
                    "output_type": "stream",
                    "name": "stdout",
                    "text": ["vllm serve m --max-model-len oops\n"],
                }
            ],
            "execution_count": 1,
            "source": ["from vllm import LLM\n", 'llm = LLM("m", max_model_len="long")'],
        },
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": 2,
            "source": ["%%bash\n", "vllm serve m --max-num-seqs 8 &"],
        },
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": 3,
            "source": ["!vllm serve m --seed 1\n", "x = 1"],
        },
    ]
    path = tmp_path / "serve.ipynb"
    path.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1),
        encoding="utf-8",
    )
    lines = path.read_text(encoding="utf-8").split("\n")
    result = lint(path)
    found = {i.origin: i for i in result.invocations}
    assert set(found) == {
        "cell 1, ```bash block",
        "code cells: LLM(...)",
        "cell 3, ```bash block",
        "cell 4, ```bash block",
    }
    for inv in result.invocations:
        assert inv.anchor is not None
        line = lines[inv.anchor.line - 1]
        assert line[inv.anchor.col - 1 :].startswith(("vllm serve", "LLM")), (inv.origin, line)
    # the error points into the JSON string that holds the value
    [finding] = result.findings
    assert finding.rule == "VL004"
    assert lines[finding.span.line - 1][finding.span.col - 1 :].startswith('\\"long\\"')


def test_a_broken_notebook_is_said_so(tmp_path: Path) -> None:
    path = write(tmp_path, "x.ipynb", '{"cells": [{"source": ["vllm serve m"]\n')
    assert rules_at(lint(path)) == [("VL907", 2, 1)]


def test_files_by_kind_and_the_prefilter() -> None:
    assert [kind_of(n) for n in ("a.md", "b.MDX", "c.rst", "d.ipynb", "e.py", "f.txt")] == [
        Kind.MARKDOWN,
        Kind.MARKDOWN,
        Kind.RST,
        Kind.NOTEBOOK,
        Kind.PYTHON,
        Kind.SKIP,
    ]
    config_like = b"title: x\nsome-key: 1\nother-key: 2\n"  # a YAML --config file would pass
    assert worth_parsing(config_like, Kind.YAML)
    assert not worth_parsing(config_like, Kind.MARKDOWN)
    assert not worth_parsing(b"max_len: int = 3\ntop_k: int = 5\n", Kind.PYTHON)
    assert worth_parsing(b"import vllm\n", Kind.PYTHON)


def test_config_turns_documentation_and_python_off(tmp_path: Path) -> None:
    write(tmp_path, "README.md", "```bash\nvllm serve m --swap-space 4\n```\n")
    write(tmp_path, "run.py", "import os\nos.system('vllm serve m --swap-space 4')\n")
    write(tmp_path, "serve.sh", "vllm serve m --swap-space 4\n")
    assert {f["path"] for f in run_cli("--format", "json", ".", cwd=tmp_path).findings()} == {
        "README.md",
        "run.py",
        "serve.sh",
    }
    write(tmp_path, ".vllm-lint.yaml", "lint-docs: false\nlint-python: false\n")
    assert {f["path"] for f in run_cli("--format", "json", ".", cwd=tmp_path).findings()} == {
        "serve.sh"
    }
    write(tmp_path, ".vllm-lint.yaml", "lint-docs: no-thanks\n")
    run = run_cli(".", cwd=tmp_path)
    assert run.code == 2 and "lint-docs" in run.err
