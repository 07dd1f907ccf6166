"""The core issue's acceptance scenarios, end to end through the CLI on real files."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write

DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nemotron
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:{tag}
          args:
            - nvidia/NVIDIA-Nemotron-Nano-9B-v2
            - --use-replayssm
            - --speculative-config
            - '{{"method":"ngram","num_speculative_tokens":3}}'
{extra}"""
FLAG_LINES = {13, 14}  # --use-replayssm, --speculative-config


def _deploy(root: Path, tag: str, extra: tuple[str, ...] = ()) -> Path:
    lines = "".join(f"            - {arg}\n" for arg in extra)
    return write(root, "deploy/vllm.yaml", DEPLOYMENT.format(tag=tag, extra=lines))


def test_v028_rejects_the_pair_with_028s_reason(repo: Path) -> None:
    _deploy(repo, "v0.28.0")
    run = run_cli("--format", "json", "deploy/vllm.yaml", cwd=repo)
    assert run.code == 1, run.err
    [finding] = run.findings()
    assert finding["path"] == "deploy/vllm.yaml"
    assert finding["line"] in FLAG_LINES
    assert "does not support speculative decoding" in finding["message"]
    assert finding["release"] == {
        "version": "0.28.0",
        "reason": "image tag vllm/vllm-openai:v0.28.0",
        "guessed": False,
    }
    assert {r["line"] for r in finding["related"]} | {finding["line"]} == FLAG_LINES


def test_v033_names_033s_reasons_then_the_fixed_file_passes(repo: Path) -> None:
    _deploy(repo, "v0.33.0")
    run = run_cli("--format", "json", ".", cwd=repo)
    assert run.code == 1
    messages = " | ".join(f["message"] for f in run.findings())
    assert "requires --mamba-backend flashinfer" in messages
    # 0.33 checks prefix caching first (on by default for hybrid models), then the backend
    assert "does not support prefix caching; use --disable-prefix-caching" in messages

    fixed = (
        "--mamba-backend=flashinfer",
        "--no-enable-prefix-caching",
        "--replayssm-buffer-len=16",
    )
    _deploy(repo, "v0.33.0", fixed)
    clean = run_cli(".", cwd=repo)
    assert clean.code == 0, clean.out
    assert "All clean" in clean.out

    again = run_cli("--vllm-version", "0.28.0", "--format", "json", ".", cwd=repo)
    assert again.code == 1
    assert [f["rule"] for f in again.findings()] == ["VL101", "VL102"]
    reasons = {f["release"]["reason"] for f in again.findings()}
    assert reasons == {"--vllm-version (the file pins 0.33.0)"}


def test_text_output_shows_path_line_col_id_and_the_source_line(repo: Path) -> None:
    _deploy(repo, "v0.28.0")
    run = run_cli("--color", "never", "deploy/vllm.yaml", cwd=repo)
    first = run.out.splitlines()[0]
    assert first.startswith("deploy/vllm.yaml:14:15: VL101 [error] ")
    assert "- --speculative-config" in run.out  # the offending line is quoted
    assert "vLLM 0.28.0: image tag vllm/vllm-openai:v0.28.0" in run.out


def test_usage_errors_exit_2_with_one_line(repo: Path) -> None:
    for args in (
        ["--vllm-version", "banana", "."],
        ["--vllm-version", "0.1.0", "."],  # older than every catalog (0.2.0)
        ["nope.yaml"],
    ):
        run = run_cli(*args, cwd=repo)
        assert run.code == 2, args
        assert run.err.count("\n") == 1 and run.err.startswith("vllm-lint: error: "), run.err


def test_fail_on_levels(repo: Path) -> None:
    _deploy(repo, "v0.28.0")
    assert run_cli("--fail-on", "never", ".", cwd=repo).code == 0
    assert run_cli("--fail-on", "error", ".", cwd=repo).code == 1
