"""`vllm-lint server` driven end to end by a real LSP client (pytest-lsp starts the server as
an editor does, `python -m vllm_lint server`, and speaks JSON-RPC to it over stdio).

Every file of every golden case of every reader in the SOURCES registry is opened with a
planted unknown flag in the buffer (not on disk); its diagnostics must be exactly the findings
the CLI prints for the same text given on stdin with `--stdin-filename` (one pipeline), so a
new reader and its cases are covered without editing this file."""

from __future__ import annotations

import io
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import REPO, chdir, run_cli, write
from vllm_lint.files import sniff
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_buffer
from vllm_lint.sources.registry import SOURCES

SOURCE_CASES = REPO / "tests" / "cases" / "sources"
# the command the README's editor setups run: the installed script, beside this Python
_SCRIPT = Path(sys.executable).parent / "vllm-lint"
SERVER = ClientServerConfig(
    server_command=[str(_SCRIPT), "server"]
    if _SCRIPT.is_file()
    else [sys.executable, "-m", "vllm_lint", "server"]
)
# appended to the first flag a reader finds, so that most buffers have something to say (a
# reader may leave it unjudged: a README's example, a Dockerfile CMD an entrypoint rewrites)
PLANT = "zz"


def _case_files() -> Iterator[tuple[Path, str]]:
    for source in SOURCES:
        for case in sorted(p for p in (SOURCE_CASES / source.id).iterdir() if p.is_dir()):
            for file in sorted(case.rglob("*")):
                name = file.relative_to(case).as_posix()
                skipped = sniff.kind_of(name) is sniff.Kind.SKIP
                if file.is_file() and name not in ("expected.txt", "args.txt") and not skipped:
                    yield case, name


CASE_FILES = list(_case_files())


def planted(case: Path, name: str) -> str | None:
    """The file's text with PLANT after the first flag the pipeline finds written in it."""
    text = (case / name).read_text("utf-8")
    with chdir(case):
        results = lint_buffer(name, text.encode(), Options(root=case))
    for result in results:
        for invocation in result.invocations:
            for token in invocation.argv:
                span = token.span
                if span.path == name and token.text.startswith("--") and span.line == span.end_line:
                    lines = text.split("\n")
                    line = lines[span.line - 1]
                    cut = span.end_col - 1
                    if line[span.col - 1 : cut].lstrip("\"'-").replace("_", "-") in token.text:
                        lines[span.line - 1] = line[:cut] + PLANT + line[cut:]
                        return "\n".join(lines)
    return None


def cli_on_stdin(case: Path, name: str, text: str, *args: str) -> Any:
    """The real CLI run in `case` on `text` given as stdin for `name`."""
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    try:
        return run_cli(*args, "--stdin-filename", name, "-", cwd=case)
    finally:
        sys.stdin = stdin


def cli_findings(case: Path, name: str, text: str) -> set[tuple[str, int, int]]:
    run = cli_on_stdin(case, name, text, "--format", "json")
    assert run.code in (0, 1), run.err
    # the server shows a buffer's own findings (a launch may also be judged in the script
    # it runs: that file's own diagnostics show it when it is open)
    return {(f["rule"], f["line"] - 1, f["col"] - 1) for f in run.findings() if f["path"] == name}


def seen(diagnostics: Any) -> set[tuple[str, int, int]]:
    return {(str(d.code), d.range.start.line, d.range.start.character) for d in diagnostics}


async def open_and_wait(client: LanguageClient, path: Path, text: str, language: str) -> Any:
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


@pytest_lsp.fixture(config=SERVER, scope="module")
async def cases_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    folders = sorted({case for case, _ in CASE_FILES})
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[lsp.WorkspaceFolder(f.as_uri(), f.name) for f in folders],
        )
    )
    yield
    await lsp_client.shutdown_session()


def test_every_reader_has_a_case_file() -> None:
    covered = {case.parent.name for case, _ in CASE_FILES}
    assert covered == {s.id for s in SOURCES}


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(
    ("case", "name"), CASE_FILES, ids=[f"{c.parent.name}/{c.name}/{n}" for c, n in CASE_FILES]
)
async def test_diagnostics_are_the_cli_findings_for_the_buffer(
    cases_client: LanguageClient, case: Path, name: str
) -> None:
    text = planted(case, name)
    if text is None:  # a file the launch reads (a ConfigMap, a script): judged as the CLI does
        text = (case / name).read_text("utf-8")
    expected = cli_findings(case, name, text)
    got = await open_and_wait(cases_client, case / name, text, "plaintext")
    assert seen(got) == expected


MANIFEST = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.20.2
          args:
            - --model=Qwen/Qwen3-8B
            - --swap-space=4
            - --max-num-seq=8
"""


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[lsp.WorkspaceFolder(tmp_path.as_uri(), "repo")],
        )
    )
    yield
    await lsp_client.shutdown_session()


def _deploy(tmp_path: Path) -> tuple[Path, str]:
    """A manifest whose disk copy is clean: what the server judges is the buffer."""
    path = write(tmp_path, "deploy.yaml", "kind: ConfigMap\n")
    return path, MANIFEST.lstrip("\n")


@pytest.mark.asyncio
async def test_the_buffer_is_judged_on_open_and_on_change(
    client: LanguageClient, tmp_path: Path
) -> None:
    path, text = _deploy(tmp_path)
    got = await open_and_wait(client, path, text, "yaml")
    assert seen(got) == cli_findings(tmp_path, "deploy.yaml", text)
    assert {(str(d.code), d.range.start.line) for d in got} == {("VL002", 12), ("VL008", 13)}
    removed = next(d for d in got if d.code == "VL002")
    assert removed.severity == lsp.DiagnosticSeverity.Error and "0.20.2" in removed.message
    fixed = text.replace("--max-num-seq=8", "--max-num-seqs=8")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=2, uri=path.as_uri()),
            [lsp.TextDocumentContentChangeWholeDocument(fixed)],
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [str(d.code) for d in client.diagnostics[path.as_uri()]] == ["VL002"]


@pytest.mark.asyncio
async def test_hover_tells_the_release_and_the_history(
    client: LanguageClient, tmp_path: Path
) -> None:
    path, text = _deploy(tmp_path)
    await open_and_wait(client, path, text, "yaml")
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(12, 18))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    shown = hover.contents.value
    assert "**--swap-space** — vLLM 0.20.2 has no --swap-space" in shown
    assert "Judged for vLLM 0.20.2 (image tag vllm/vllm-openai:v0.20.2)" in shown
    history = run_cli("flag", "--swap-space").out.strip()
    assert history in shown  # the same history `vllm-lint flag` prints
    nothing = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(1, 2))
    )
    assert nothing is None  # `kind`: no flag of that name


@pytest.mark.slow  # a server each: the fast lane keeps open/change, hover, actions
@pytest.mark.asyncio
async def test_completion_offers_the_flags_of_the_files_release(
    client: LanguageClient, tmp_path: Path
) -> None:
    from vllm_lint.argv.catalog import catalog_for

    path, text = _deploy(tmp_path)
    text = text.replace("--max-num-seq=8", "--max-num")
    await open_and_wait(client, path, text, "yaml")
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(13, 21))
    )
    assert isinstance(result, lsp.CompletionList)
    labels = {item.label for item in result.items}
    flags = catalog_for("0.20.2").flags
    assert labels == {f for f in flags if f.startswith("--max-num")}
    assert "--max-num-seqs" in labels
    # the keys of a JSON flag, in the value on the next line of a YAML list
    keyed = text.replace("- --max-num", "- --speculative-config\n            - '{\"me")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=2, uri=path.as_uri()),
            [lsp.TextDocumentContentChangeWholeDocument(keyed)],
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(14, 18))
    )
    assert isinstance(result, lsp.CompletionList)
    keys = flags["--speculative-config"].json_keys or ()
    assert {i.label for i in result.items} == {k for k in keys if k.startswith("me")} != set()


@pytest.mark.asyncio
async def test_code_actions_fix_safe_and_unsafe_and_suppress_with_a_reason(
    client: LanguageClient, tmp_path: Path
) -> None:
    path, text = _deploy(tmp_path)
    got = await open_and_wait(client, path, text, "yaml")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(path.as_uri()),
            lsp.Range(lsp.Position(12, 0), lsp.Position(13, 0)),
            lsp.CodeActionContext(diagnostics=list(got)),
        )
    )
    assert actions is not None
    titles = sorted(a.title for a in actions if isinstance(a, lsp.CodeAction))
    assert titles == [
        "Remove --swap-space (unsafe)",
        "Suppress VL002 here (with a reason)",
        "Suppress VL008 here (with a reason)",
        "Write --max-num-seqs in full (safe)",
    ]
    # each edit, applied as an editor would, leaves the CLI without that finding
    for action in actions:
        assert isinstance(action, lsp.CodeAction) and action.edit and action.edit.changes
        edited = _apply(text, action.edit.changes[path.as_uri()])
        rule = str(action.diagnostics[0].code) if action.diagnostics else ""
        after = {r for r, _, _ in cli_findings(tmp_path, "deploy.yaml", edited)}
        assert rule not in after and "VL950" not in after, action.title


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


@pytest.mark.slow  # a server each: the fast lane keeps open/change, hover, actions
@pytest.mark.asyncio
async def test_a_changed_configuration_counts_at_once(
    client: LanguageClient, tmp_path: Path
) -> None:
    path, text = _deploy(tmp_path)
    await open_and_wait(client, path, text, "yaml")
    config = write(tmp_path, ".vllm-lint.yaml", "ignore: [VL008]\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            [lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Created)]
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [str(d.code) for d in client.diagnostics[path.as_uri()]] == ["VL002"]
    # a broken configuration: the CLI's one-line error, where the user looks
    write(tmp_path, ".vllm-lint.yaml", "ignore: [VL008\n")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            [lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Changed)]
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    (said,) = client.diagnostics[path.as_uri()]
    run = cli_on_stdin(tmp_path, "deploy.yaml", text)
    assert run.code == 2 and said.message == run.err.strip()


def test_without_pygls_the_server_says_so_in_one_line() -> None:
    import subprocess

    code = "import sys; sys.modules['pygls'] = None\nfrom vllm_lint.cli import main\nsys.exit(main(['server']))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr == (
        "vllm-lint: error: the language server needs pygls: "
        "pip install -e '.[lsp]' in the vllm-lint clone\n"
    )


def test_a_lint_run_never_imports_the_server() -> None:
    import subprocess

    code = (
        "import contextlib, io, sys\nfrom vllm_lint.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['--fail-on', 'never', '.'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')"
        " or m.startswith('vllm_lint.lsp')))"
    )
    cases = REPO / "tests" / "cases" / "sources" / "kubernetes"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cases
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_readme_sets_up_each_editor_with_the_extra() -> None:
    import re

    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("### Editors", 1)[1].split("\n### ", 1)[0]
    assert "pip install -e '.[lsp]'" in section
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    assert re.search(r'^lsp = \["pygls', pyproject, re.M), "the extra the README installs"
    blocks = dict(re.findall(r"```(json|lua|toml)\n(.*?)```", section, re.S))
    assert set(blocks) == {"json", "lua", "toml"}  # VS Code, Neovim, Helix
    assert '"glspc.server.command": "vllm-lint"' in blocks["json"]
    assert '"glspc.server.commandArguments": ["server"]' in blocks["json"]
    assert 'cmd = { "vllm-lint", "server" }' in blocks["lua"]
    assert 'command = "vllm-lint"\nargs = ["server"]' in blocks["toml"]


@pytest.mark.slow  # a server each: the fast lane keeps open/change, hover, actions
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("name", "text", "word"),
    [
        ("serve.py", 'from vllm import LLM\n\nllm = LLM(model="m", swap_space=4)\n', "swap_space"),
        ("vllm-config.yaml", "model: m\nmax_model_len: 8192\n", "max_model_len"),
        ("run.sh", "#!/bin/sh\nvllm serve m --max-model-len 8192\n", "--max-model-len"),
    ],
    ids=["python-keyword", "config-key", "shell-flag"],
)
async def test_hover_on_a_keyword_a_key_or_a_flag(
    client: LanguageClient, tmp_path: Path, name: str, text: str, word: str
) -> None:
    from vllm_lint.argv.history import canonical

    path = write(tmp_path, name, text)
    await open_and_wait(client, path, text, "plaintext")
    line = next(n for n, line in enumerate(text.split("\n")) if word in line)
    at = text.split("\n")[line].index(word) + 2
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(line, at))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    flag = canonical(word)
    assert hover.contents.value.startswith(f"**{flag}** — ")
    assert "Judged for vLLM " in hover.contents.value
    assert run_cli("flag", flag).out.strip() in hover.contents.value
