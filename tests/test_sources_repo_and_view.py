"""Which release a file is checked against (repo pins), what `--show-invocations` prints,
templates of other languages, and the cost of files that cannot launch vLLM."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import BAD_DEPLOYMENT, REPO, run_cli, write
from sources_helpers import launches, words

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: m}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: IMAGE
          command: [vllm, serve]
          args: [org/m, --swap-space, "4"]
"""


def _release(root: Path, name: str, *args: str) -> str:
    run = run_cli("--show-invocations", *args, name, cwd=root)
    assert run.code == 0, run.err
    return next(line for line in run.out.splitlines() if line.startswith("  release: "))


def test_release_precedence_flag_image_pin_newest(tmp_path: Path) -> None:
    write(tmp_path, "requirements.txt", "torch==2.6.0\nvllm==0.10.1 ; sys_platform == 'linux'\n")
    write(tmp_path, "deploy/tagged.yaml", DEPLOYMENT.replace("IMAGE", "vllm/vllm-openai:v0.9.2"))
    write(tmp_path, "deploy/latest.yaml", DEPLOYMENT.replace("IMAGE", "myorg/vllm-server:3"))
    assert _release(tmp_path, "deploy/tagged.yaml") == (
        "  release: 0.9.2 (image tag vllm/vllm-openai:v0.9.2)"
    )
    assert _release(tmp_path, "deploy/latest.yaml") == (
        "  release: 0.10.1 (vllm==0.10.1 pinned in requirements.txt:2)"
    )
    assert _release(tmp_path, "deploy/latest.yaml", "--vllm-version", "0.34.0") == (
        "  release: 0.34.0 (--vllm-version)"
    )
    (tmp_path / "requirements.txt").write_text("vllm>=0.10\n")  # a range pins nothing
    assert _release(tmp_path, "deploy/latest.yaml").startswith("  release: 0.34.0 (release unknown")


def test_the_nearest_pin_wins_and_conflicting_pins_give_none(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[project]\ndependencies = ["vllm==0.11.0"]\n')
    write(tmp_path, "svc/Dockerfile", "FROM vllm/vllm-openai:v0.12.0\n")
    write(tmp_path, "svc/k8s.yaml", DEPLOYMENT.replace("IMAGE", "myorg/server:1"))
    write(tmp_path, "other/k8s.yaml", DEPLOYMENT.replace("IMAGE", "myorg/server:1"))
    assert _release(tmp_path, "svc/k8s.yaml") == (
        "  release: 0.12.0 (vllm==0.12.0 pinned in svc/Dockerfile:1)"
    )
    assert _release(tmp_path, "other/k8s.yaml") == (
        "  release: 0.11.0 (vllm==0.11.0 pinned in pyproject.toml:2)"
    )
    write(tmp_path, "svc/requirements.txt", "vllm==0.13.0\n")
    assert "newest known" in _release(tmp_path, "svc/k8s.yaml")


def test_show_invocations_prints_place_release_words_and_env(tmp_path: Path) -> None:
    write(
        tmp_path,
        "serve.sh",
        'export VLLM_USE_V1=1\nX="--max-num-seqs 8"\nvllm serve org/m $X --port $PORT\n',
    )
    run = run_cli("--show-invocations", "serve.sh", cwd=tmp_path)
    assert run.out.splitlines() == [
        "serve.sh:3:1: script line 3",
        "  release: 0.34.0 (release unknown: no image tag or pin names one; judged as 0.34.0, the newest known)",
        "  not literal, not checked: $PORT",
        "  --max-num-seqs 8  (line 2)",
        '  --model "org/m"  (line 3)',
        "  --port <not literal>  (line 3)",
        '  env VLLM_USE_V1="1"',
        "1 vLLM invocation(s) in 1 file(s).",
    ]


def test_terraform_envsubst_and_str_format_templates(tmp_path: Path) -> None:
    tf = write(
        tmp_path,
        "vllm.tftpl",
        """\
        spec:
          containers:
            - name: vllm
              image: "vllm/vllm-openai:v0.8.5"
              command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
              args: ["--model", "${model_id}", "--tensor-parallel-size", "${gpu_count}"]
              env:
        %{ for secret in secrets ~}
                - name: HF_TOKEN
        %{ endfor ~}
        """,
    )
    [inv] = launches(tf)
    assert words(inv) == [("--model", 6, 15), ("--tensor-parallel-size", 6, 41)]
    assert [t.text for t in inv.argv if t.opaque] == ["{{…}}", "{{…}}"]
    fmt = write(
        tmp_path,
        "config.yaml.tpl",
        """\
        model_name: {service_name}
        docker_server:
          start_command: >-
            vllm serve /models/{folder}
            --max-model-len {max_model_len}
            --enforce-eager
        """,
    )
    [inv] = launches(fmt)
    assert words(inv) == [("--max-model-len", 5, 5), ("--enforce-eager", 6, 5)]
    run = run_cli("--format", "json", "config.yaml.tpl", cwd=tmp_path)
    assert [(f["rule"], f["severity"]) for f in run.findings()] == [("VL905", "info")]


def test_a_file_that_cannot_launch_vllm_costs_a_read_and_a_byte_search(tmp_path: Path) -> None:
    write(tmp_path, "service.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n")
    write(tmp_path, "build.sh", "#!/bin/sh\nmake all\n")
    write(tmp_path, "Dockerfile", 'FROM python:3.12\nCMD ["python", "app.py"]\n')
    code = (
        "import sys\n"
        "from vllm_lint.options import Options\nfrom vllm_lint.pipeline import lint_file\n"
        "for name in ('service.yaml', 'build.sh', 'Dockerfile'):\n"
        "    lint_file(name, Options())\n"
        "heavy = [m for m in ('ruamel.yaml', 'jsonschema', 'vllm_lint.read.shell',\n"
        "         'vllm_lint.sources.dockerfile') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "hooks")},
        check=True,
    )
    assert proc.stdout.strip() == "[]", proc.stderr


def test_a_standalone_config_file_is_read_for_the_release_the_repo_pins(tmp_path: Path) -> None:
    """The release is chosen before the readers run: in a repo that pins vllm==0.9.2, a
    `--config` file made of flags 0.9.2 has (and 0.34 dropped) is a vLLM config file."""
    write(tmp_path, "requirements.txt", "vllm==0.9.2\n")
    write(
        tmp_path,
        "serve-config.yaml",
        """
        num-scheduler-steps: 8
        disable-log-requests: true
        max-seq-len-to-capture: 8192
        preemption-mode: recompute
        """,
    )
    shown = run_cli("--show-invocations", "serve-config.yaml", cwd=tmp_path)
    assert "1 vLLM invocation" in shown.out, shown.out
    assert "vllm==0.9.2 pinned in requirements.txt:1" in shown.out, shown.out
    assert run_cli("serve-config.yaml", cwd=tmp_path).code == 0


def test_folder_walks_show_paths_as_the_user_named_the_folder(tmp_path: Path) -> None:
    """In a git work tree, `vllm-lint deploy` from the top and `vllm-lint .` from inside the
    folder name the same file relative to where they ran (not relative to the repo's top)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path, "deploy/k8s/vllm.yaml", BAD_DEPLOYMENT)
    from_top = run_cli("--format", "json", "deploy", cwd=tmp_path)
    assert {f["path"] for f in from_top.findings()} == {"deploy/k8s/vllm.yaml"}
    from_inside = run_cli("--format", "json", ".", cwd=tmp_path / "deploy")
    assert {f["path"] for f in from_inside.findings()} == {"k8s/vllm.yaml"}
