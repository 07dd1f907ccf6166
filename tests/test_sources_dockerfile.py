"""Dockerfiles: CMD/ENTRYPOINT in exec and shell form, continuations, the release from the
base image's tag or a pinned pip install, and multi-stage builds."""

from __future__ import annotations

from pathlib import Path

from conftest import write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.release import evidence_choice

MULTI_STAGE = """\
# syntax=docker/dockerfile:1
ARG VLLM_TAG=v0.17.1
FROM vllm/vllm-openai:${VLLM_TAG} AS base
ENV VLLM_USE_V1=1 \\
    MODEL=Qwen/Qwen3-8B
CMD ["--model", "Qwen/Qwen3-8B", \\
     # a comment line inside the continuation is dropped
     "--swap-space", "4"]

FROM python:3.11-slim AS custom
RUN pip install --no-cache-dir "vllm==0.10.1" && \\
    echo installed
ENTRYPOINT python3 -m vllm.entrypoints.openai.api_server \\
    --model ${MODEL:-org/fallback} --max-num-seqs 8
CMD ["--ignored"]

FROM base AS final
ENTRYPOINT ["vllm"]
CMD ["serve", "org/final", "--tensor-parallel-size", "2"]

FROM final AS unchanged
LABEL note="inherits final's command; not reported twice"
"""


def test_exec_form_on_a_vllm_base_is_server_arguments(tmp_path: Path) -> None:
    path = write(tmp_path, "Dockerfile", MULTI_STAGE)
    base = launches(path)[0]
    assert evidence_choice(base) is not None and evidence_choice(base).version == "0.17.1"
    assert "FROM, line 3" in evidence_choice(base).reason
    assert where(base) == (6, 1)
    assert words(base) == [
        ("--model", 6, 7),
        ("Qwen/Qwen3-8B", 6, 18),
        ("--swap-space", 8, 7),
        ("4", 8, 23),
    ]
    assert base.env["VLLM_USE_V1"].text == "1"
    assert (base.env["MODEL"].span.line, base.env["MODEL"].span.col) == (5, 11)


def test_shell_form_entrypoint_and_a_pip_pin(tmp_path: Path) -> None:
    path = write(tmp_path, "Dockerfile", MULTI_STAGE)
    custom = launches(path)[1]
    assert evidence_choice(custom) is not None and evidence_choice(custom).version == "0.10.1"
    assert "line 11" in evidence_choice(custom).reason
    # MODEL is not set in this stage: `${MODEL:-…}` may come from `docker run -e`
    assert words(custom) == [("--model", 14, 5), ("--max-num-seqs", 14, 36), ("8", 14, 51)]
    assert [t.text for t in custom.argv if t.opaque] == ["${MODEL:-org/fallback}"]
    assert all(t.text != "--ignored" for t in custom.argv)  # CMD after a shell-form ENTRYPOINT


def test_stages_inherit_and_entrypoint_resets_cmd(tmp_path: Path) -> None:
    path = write(tmp_path, "Dockerfile", MULTI_STAGE)
    found = launches(path)
    assert len(found) == 3  # `unchanged` writes no command of its own
    final = found[2]
    assert evidence_choice(final) is not None and evidence_choice(final).version == "0.17.1"
    assert where(final) == (18, 14)  # `vllm` of ENTRYPOINT ["vllm"]
    assert words(final) == [
        ("org/final", 19, 16),
        ("--tensor-parallel-size", 19, 29),
        ("2", 19, 55),
    ]


def test_the_release_of_the_base_image_decides(tmp_path: Path) -> None:
    path = write(tmp_path, "Dockerfile", MULTI_STAGE)
    assert ("VL002", 8, 7) not in rules_at(lint(path))  # --swap-space exists in 0.17
    newer = write(tmp_path / "new", "Dockerfile", MULTI_STAGE.replace("v0.17.1", "v0.18.1"))
    assert ("VL002", 8, 7) in rules_at(lint(newer))


def test_named_dockerfiles_and_no_launch(tmp_path: Path) -> None:
    path = write(
        tmp_path, "cuda.Dockerfile", 'FROM vllm/vllm-openai:v0.9.2\nCMD ["--model", "m"]\n'
    )
    [inv] = launches(path)
    assert words(inv) == [("--model", 2, 7), ("m", 2, 18)]
    plain = write(tmp_path, "Dockerfile.app", "FROM python:3.11\nRUN pip install vllm\n")
    assert launches(plain) == []
    shell_cmd = write(tmp_path, "Containerfile", "FROM vllm/vllm-openai:v0.9.2\nCMD vllm serve m\n")
    # the server gets `/bin/sh -c "vllm serve m"` as its arguments: a launch that fails (VL502)
    [inv] = launches(shell_cmd)
    assert inv.entrypoint == "shell-form CMD"
    assert [t.text for t in inv.argv] == ["/bin/sh", "-c", "vllm serve m"]
