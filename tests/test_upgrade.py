"""The upgrade check: `vllm-lint --vllm-version NEXT .` on a repo pinned to older images lists
what would break on the new image (tests/fixtures/upgrade-repo, three files pinned to 0.9.2,
0.11.0 and 0.15.1, each fine on its own image)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO, run_cli
from vllm_lint.resources import schemas_dir

FIXTURE = REPO / "tests" / "fixtures" / "upgrade-repo"

# What breaks, by target release: (path, line, rule, a piece of the message). Each line is a
# fact of the vLLM source named in schemas/renamed-flags.json or the catalogs.
BREAKS_ON_0_34 = {
    ("compose.yaml", 7, "VL002", "for --task embed, write --runner pooling"),
    ("compose.yaml", 8, "VL002", """use --hf-overrides '{"rope_scaling": {"rope_type": """),
    ("compose.yaml", 9, "VL002", "use --cudagraph-capture-sizes 1 2 4 8"),
    ("compose.yaml", 10, "VL002", "use --mm-processor-cache-gb 0"),
    ("deploy/reasoning.yaml", 20, "VL002", "--reasoning-parser alone turns reasoning on"),
    ("deploy/reasoning.yaml", 23, "VL002", """--structured-outputs-config '{"backend": "xgrammar"}'"""),
    ("deploy/reasoning.yaml", 25, "VL002", "--swap-space was removed in vLLM 0.18.0"),
    # silently ignored by 0.15.1 (pydantic's default), refused from 0.16.0 (@config forbids)
    ("deploy/speculative.yaml", 14, "VL006", "did you mean 'prompt_lookup_max'?"),
    ("deploy/speculative.yaml", 15, "VL002", "--disable-frontend-multiprocessing was removed"),
}  # fmt: skip
# 0.17-0.32 lack --disable-log-requests; 0.33 accepts it again (--enable-log-requests' negation)
BREAKS_ON_0_20 = BREAKS_ON_0_34 | {
    ("deploy/reasoning.yaml", 27, "VL002", "--disable-log-requests was removed in vLLM 0.17.0"),
}


@pytest.fixture
def upgrade_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    return root


def _found(root: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    run = run_cli("--format", "json", *args, ".", cwd=root)
    assert not run.err, run.err
    return run.code, run.findings()


def _matches(found: list[dict[str, object]], expected: set[tuple[str, int, str, str]]) -> None:
    got = {(f["path"], f["line"], f["rule"]) for f in found}
    assert got == {e[:3] for e in expected}
    for path, line, rule, text in expected:
        [finding] = [f for f in found if (f["path"], f["line"], f["rule"]) == (path, line, rule)]
        assert text in str(finding["message"]), finding["message"]


def test_each_file_is_fine_on_the_image_it_pins(upgrade_repo: Path) -> None:
    code, found = _found(upgrade_repo, "--fail-on", "error")
    assert code == 0
    assert {f["severity"] for f in found} == {"warning"}
    by_file = {(f["path"], f["release"]["version"]) for f in found}  # type: ignore[index]
    assert by_file == {
        ("compose.yaml", "0.11.0"),
        ("deploy/reasoning.yaml", "0.9.2"),
        ("deploy/speculative.yaml", "0.15.1"),
    }
    # what the pinned releases already say is on its way out
    assert {(f["path"], f["line"], f["rule"]) for f in found} == {
        ("compose.yaml", 7, "VL003"),  # --task
        # (--cuda-graph-sizes, line 9: deprecated from 0.11.1, not yet in the 0.11.0 pinned)
        ("compose.yaml", 10, "VL003"),  # --disable-mm-preprocessor-cache
        ("deploy/reasoning.yaml", 20, "VL003"),  # --enable-reasoning
        ("deploy/speculative.yaml", 14, "VL012"),  # the misspelt key, ignored there
    }


@pytest.mark.parametrize(
    ("target", "expected"), [("0.34.0", BREAKS_ON_0_34), ("0.20.0", BREAKS_ON_0_20)]
)
def test_bumping_the_image_lists_what_breaks(
    upgrade_repo: Path, target: str, expected: set[tuple[str, int, str, str]]
) -> None:
    code, found = _found(upgrade_repo, "--vllm-version", target)
    assert code == 1
    _matches(found, expected)
    assert {f["release"]["version"] for f in found} == {target}  # type: ignore[index]
    assert all(f["severity"] == "error" for f in found)


def test_fixing_what_it_lists_makes_the_repo_pass(upgrade_repo: Path) -> None:
    compose = upgrade_repo / "compose.yaml"
    compose.write_text(
        compose.read_text(encoding="utf-8")
        .replace("--task embed", "--runner pooling")
        .replace("--rope-scaling '", "--hf-overrides '")
        .replace('{"rope_type": "dynamic", "factor": 2.0}', '{"rope_scaling": {"factor": 2.0}}')
        .replace("--cuda-graph-sizes", "--cudagraph-capture-sizes")
        .replace("--disable-mm-preprocessor-cache", "--mm-processor-cache-gb 0"),
        encoding="utf-8",
    )
    reasoning = upgrade_repo / "deploy" / "reasoning.yaml"
    text = reasoning.read_text(encoding="utf-8")
    for gone in ("--enable-reasoning", "--swap-space", '"16"'):
        text = text.replace(f"            - {gone}\n", "")
    text = text.replace(
        "- --guided-decoding-backend\n            - xgrammar",
        "- --structured-outputs-config.backend\n            - xgrammar",
    )
    reasoning.write_text(text, encoding="utf-8")
    spec = upgrade_repo / "deploy" / "speculative.yaml"
    text = spec.read_text(encoding="utf-8").replace("prompt_lookup_mx", "prompt_lookup_max")
    text = text.replace("        - --disable-frontend-multiprocessing\n", "")
    spec.write_text(text, encoding="utf-8")
    code, found = _found(upgrade_repo, "--vllm-version", "0.34.0")
    assert (code, found) == (0, [])


def test_the_upgrade_page_names_every_removed_flag() -> None:
    page = (REPO / "docs" / "upgrading.md").read_text(encoding="utf-8")
    table = json.loads((schemas_dir() / "renamed-flags.json").read_text(encoding="utf-8"))
    missing = [flag for flag in table["flags"] if f"`{flag}`" not in page]
    assert not missing, missing


def test_the_upgrade_page_table_is_generated_from_the_table() -> None:
    spec = importlib.util.spec_from_file_location(
        "render_removed_flags", REPO / "tools" / "render_removed_flags.py"
    )
    assert spec is not None and spec.loader is not None
    render = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(render)
    page = (REPO / "docs" / "upgrading.md").read_text(encoding="utf-8")
    assert render.embedded(page) == render.render(), (
        "run: python tools/render_removed_flags.py --write"
    )


def test_the_upgrade_page_shows_a_real_run(upgrade_repo: Path) -> None:
    run = run_cli("--vllm-version", "0.34.0", "--color", "never", ".", cwd=upgrade_repo)
    summary = [line for line in run.out.splitlines() if not line.startswith(" ")]
    page = (REPO / "docs" / "upgrading.md").read_text(encoding="utf-8")
    section = page.split("## What the check reports", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    assert block == summary


def test_the_upgrade_page_shows_a_real_flag_history() -> None:
    page = (REPO / "docs" / "upgrading.md").read_text(encoding="utf-8")
    block = page.split("```text\n$ vllm-lint flag --swap-space\n", 1)[1].split("```", 1)[0]
    run = run_cli("flag", "--swap-space")
    assert run.code == 0, run.err
    # the page shortens the cited source; everything before it is the real output
    shown = [line.split("; source: ", 1)[0] for line in block.splitlines()]
    assert shown == [line.split("; source: ", 1)[0] for line in run.out.splitlines()]
