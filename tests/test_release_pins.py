"""Pins as people write them, read by the release gate alone (release.py): conda environment
files, `-r` includes, PEP 508 direct references (a git tag, a wheel's file name, a commit),
and the images that re-publish vLLM (schemas/server-images.json) — each with the release it
names, or said to name none.

The forms are those of public files: `pip install https://github.com/vllm-project/vllm/
releases/download/v${VLLM_VERSION}/vllm-${VLLM_VERSION}+cu118-…whl` (a README's install
steps), `-r base.txt` then `vllm==0.9.1` (a split requirements folder), `FROM
rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513`, `docker run … nvcr.io/nvidia/vllm:25.09-py3 vllm
serve …` (NVIDIA's DGX Spark playbooks), `public.ecr.aws/q9t5s3a7/vllm-release-repo:<commit>`
(vLLM's own CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, write


def _release(root: Path, name: str) -> str:
    run = run_cli("--show-invocations", name, cwd=root)
    assert run.code in (0, 1), run.err
    lines = [line for line in run.out.splitlines() if line.startswith("  release: ")]
    assert lines, run.out
    assert len(set(lines)) == 1, lines
    return lines[0].removeprefix("  release: ")


# -- conda environment files ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "environment.yml",
            "name: rl\nchannels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pip\n"
            "  - pip:\n      - torch==2.3.0\n      - vllm==0.5.4\n",
            "0.5.4 (vllm==0.5.4 pinned in environment.yml:8)",
        ),
        (
            "environment-gpu.yaml",
            "dependencies:\n  - conda-forge::vllm=0.9.2=cuda126_py312\n",
            "0.9.2 (vllm==0.9.2 pinned in environment-gpu.yaml:2)",
        ),
        (
            "conda.yaml",  # MLflow's model environment
            "dependencies:\n  - vllm==0.8.5.post1\n",
            "0.8.5.post1 (vllm==0.8.5.post1 pinned in conda.yaml:2)",
        ),
    ],
)
def test_a_conda_environment_pins_the_release_of_its_folder(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    write(tmp_path, name, text)
    write(tmp_path, "scripts/serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "scripts/serve.sh") == expected


@pytest.mark.parametrize(
    "text",
    [
        "dependencies:\n  - vllm>=0.6\n",  # a range pins nothing
        "dependencies:\n  - vllm=0.6\n",  # conda's fuzzy 0.6.*: no patch
        "dependencies: 3\n",
        "dependencies:\n  - pip: 7\n",
        "dependencies: [\n",  # not YAML
        "- just\n- a list\n",
    ],
)
def test_a_conda_environment_that_pins_nothing_is_no_pin(tmp_path: Path, text: str) -> None:
    write(tmp_path, "environment.yml", text)
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh").startswith("0.34.0 (release unknown: no image tag")


def test_a_conda_pip_list_follows_its_includes(tmp_path: Path) -> None:
    write(tmp_path, "environment.yml", "dependencies:\n  - pip:\n    - -r requirements/gpu.txt\n")
    write(tmp_path, "requirements/gpu.txt", "vllm==0.6.3.post1\n")
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh") == (
        "0.6.3.post1 (vllm==0.6.3.post1 pinned in requirements/gpu.txt:1)"
    )


# -- `-r` includes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "include",
    [
        "-r base.txt",
        "--requirement base.txt",
        "-rbase.txt",
        "--requirement=base.txt",
        "-c base.txt",
    ],
)
def test_an_include_is_read_relative_to_the_including_file(tmp_path: Path, include: str) -> None:
    write(tmp_path, "requirements.txt", "-r requirements/vllm.txt\n")
    write(tmp_path, "requirements/vllm.txt", f"# vLLM specific dependencies\n{include}\ntorch\n")
    write(tmp_path, "requirements/base.txt", "fastapi\nvllm==0.9.1\n")
    write(tmp_path, "deploy/serve.sh", "vllm serve org/m --disable-log-requests\n")
    assert _release(tmp_path, "deploy/serve.sh") == (
        "0.9.1 (vllm==0.9.1 pinned in requirements/base.txt:2)"
    )


def test_includes_are_cycle_safe_bounded_and_never_leave_the_repo(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(tmp_path, "outside.txt", "vllm==0.7.0\n")
    write(repo, "a/requirements.txt", "-r requirements.txt\n-r ../b.txt\n-r ../../outside.txt\n")
    write(repo, "b.txt", "-r a/requirements.txt\n")
    write(repo, "a/serve.sh", "vllm serve org/m\n")
    assert _release(repo, "a/serve.sh").startswith("0.34.0 (release unknown: no image tag")
    chain = [f"-r c{k + 1}.txt\n" for k in range(12)] + ["vllm==0.7.3\n"]
    write(repo, "deep/requirements.txt", chain[0])
    for k in range(1, 13):
        write(repo, f"deep/c{k}.txt", chain[k])
    write(repo, "deep/serve.sh", "vllm serve org/m\n")  # 13 files deep: past the bound
    assert _release(repo, "deep/serve.sh").startswith("0.34.0 (release unknown")
    (repo / "deep/requirements.txt").write_text("-r c10.txt\n")  # 4 deep: followed
    assert _release(repo, "deep/serve.sh").startswith("0.7.3 (vllm==0.7.3 pinned in deep/c12")


def test_an_include_that_conflicts_gives_no_answer(tmp_path: Path) -> None:
    write(tmp_path, "requirements.txt", "vllm==0.10.0\n-r extra.txt\n")
    write(tmp_path, "extra.txt", "vllm==0.10.1\n")
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh").startswith("0.34.0 (release unknown")


# -- PEP 508 direct references ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        (
            "vllm @ git+https://github.com/vllm-project/vllm@v0.6.3",
            "0.6.3 (vllm==v0.6.3 pinned in requirements.txt:1)",
        ),
        (
            "vllm @ git+https://github.com/vllm-project/vllm.git@v0.8.5.post1#egg=vllm",
            "0.8.5.post1 (vllm==v0.8.5.post1 pinned in requirements.txt:1)",
        ),
        (
            "vllm @ https://github.com/vllm-project/vllm/releases/download/v0.6.3/"
            "vllm-0.6.3-cp38-abi3-manylinux1_x86_64.whl",
            "0.6.3 (vllm==0.6.3 pinned in requirements.txt:1)",
        ),
        (
            "vllm @ git+https://github.com/vllm-project/vllm@1f8a2d0c9e4b7a6f5d3c2b1a0e9f8d7c6b5a4f3e",
            "0.34.0 (release unknown: vllm @ git+https://github.com/vllm-project/vllm@1f8a2d0c9e4b"
            "7a6f5d3c2b1a0e9f8d7c6b5a4f3e pinned in requirements.txt:1 names no release; judged "
            "as 0.34.0, the newest known)",
        ),
        (
            "vllm @ git+https://github.com/myfork/vllm@main",
            "0.34.0 (release unknown: vllm @ git+https://github.com/myfork/vllm@main pinned in "
            "requirements.txt:1 names no release; judged as 0.34.0, the newest known)",
        ),
        (
            "vllm @ file:///opt/wheels/vllm",
            "0.34.0 (release unknown: vllm @ file:///opt/wheels/vllm pinned in requirements.txt:1"
            " names no release; judged as 0.34.0, the newest known)",
        ),
    ],
)
def test_a_direct_reference_in_requirements(
    tmp_path: Path, requirement: str, expected: str
) -> None:
    write(tmp_path, "requirements.txt", requirement + "\n")
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh") == expected


def test_a_configured_default_decides_when_the_pin_names_no_release(tmp_path: Path) -> None:
    write(tmp_path, "requirements.txt", "vllm @ git+https://github.com/vllm-project/vllm@main\n")
    write(tmp_path, ".vllm-lint.yaml", 'vllm-version: "0.9.2"\n')
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh") == "0.9.2 (configured default)"


@pytest.mark.parametrize(
    ("install", "expected"),
    [
        (
            'pip install "vllm @ git+https://github.com/vllm-project/vllm@v0.6.3"',
            "0.6.3 (pip install git+https://github.com/vllm-project/vllm@v0.6.3 (line 2))",
        ),
        (
            "pip install https://github.com/vllm-project/vllm/releases/download/v${VLLM_VERSION}/"
            "vllm-${VLLM_VERSION}+cu118-cp310-cp310-manylinux1_x86_64.whl",
            "0.4.0 (pip install https://github.com/vllm-project/vllm/releases/download/v0.4.0/"
            "vllm-0.4.0+cu118-cp310-cp310-manylinux1_x86_64.whl (line 2))",
        ),
        (
            "uv pip install git+https://github.com/vllm-project/vllm.git@d3f05c9",
            "0.34.0 (release unknown: pip install git+https://github.com/vllm-project/vllm.git@"
            "d3f05c9 names no release; judged as 0.34.0, the newest known)",
        ),
    ],
)
def test_a_direct_reference_a_script_installs(tmp_path: Path, install: str, expected: str) -> None:
    write(tmp_path, "setup.sh", f"export VLLM_VERSION=0.4.0\n{install}\nvllm serve org/m\n")
    assert _release(tmp_path, "setup.sh") == expected


# -- re-publications of the server image --------------------------------------------------------


@pytest.mark.parametrize(
    ("image", "expected"),
    [
        ("rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513", "0.8.5 (image tag rocm/vllm:rocm6.3.1_vllm_"),
        ("rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250415", "0.8.3 (image tag rocm/vllm:"),
        ("docker.io/rocm/vllm:rocm6.4.1_vllm_0.9.0.1_20250605", "0.9.0.1 (image tag docker.io/"),
        (
            "rocm/vllm:rocm7.12.0_gfx950-dcgpu_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0",
            "0.16.0 (image tag rocm/vllm:rocm7.12.0_",
        ),
        ("rocm/vllm:v0.14.0_amd_dev", "0.34.0 (release unknown: image rocm/vllm:v0.14.0_amd_dev"),
        ("rocm/vllm:latest", "0.34.0 (release unknown: image rocm/vllm:latest is 'latest'"),
        ("rocm/vllm-dev:nightly_0610_rc2_0610_rc2_20250605", "0.34.0 (release unknown: image rocm"),
        ("nvcr.io/nvidia/vllm:25.10-py3", "0.10.2 (image tag nvcr.io/nvidia/vllm:25.10-py3)"),
        ("nvcr.io/nvidia/vllm:26.03-py3", "0.17.1 (image tag nvcr.io/nvidia/vllm:26.03-py3)"),
        ("nvcr.io/nvidia/vllm:25.09-py3", "0.34.0 (release unknown: image nvcr.io/nvidia/vllm:25"),
        ("nvcr.io/nvidia/vllm:26.03.post1-py3", "0.34.0 (release unknown: image nvcr.io/nvidia"),
        ("ghcr.io/acme/vllm-openai:v0.6.3", "0.6.3 (image tag ghcr.io/acme/vllm-openai:v0.6.3)"),
        ("quay.io/acme/vllm-openai:v0.7.3", "0.7.3 (image tag quay.io/acme/vllm-openai:v0.7.3)"),
        ("vllm/vllm-openai:nightly", "0.34.0 (release unknown: image vllm/vllm-openai:nightly"),
    ],
)
def test_the_release_an_image_names_and_a_repo_pin_does_not_override_it(
    tmp_path: Path, image: str, expected: str
) -> None:
    write(tmp_path, "requirements.txt", "vllm==0.10.1\n")  # the host's, not the image's
    write(tmp_path, "run.sh", f"docker run --gpus all {image} vllm serve org/m\n")
    assert _release(tmp_path, "run.sh").startswith(expected)


def test_a_ci_build_of_the_server_image_is_a_launch_of_no_known_release(tmp_path: Path) -> None:
    image = (
        "public.ecr.aws/q9t5s3a7/vllm-release-repo:aa9903490c616dc6871e5acc62cec7bb1e5e9434-x86_64"
    )
    write(tmp_path, "run.sh", f"docker run --gpus all {image} --model org/m\n")
    assert _release(tmp_path, "run.sh") == (
        f"0.34.0 (release unknown: image {image} names no release this vllm-lint knows; judged as"
        " 0.34.0, the newest known)"
    )


def test_an_image_that_carries_vllm_but_starts_a_shell_is_no_server(tmp_path: Path) -> None:
    """`FROM rocm/vllm:…` then `ENTRYPOINT ["./run.sh"]`: no launch; its `CMD` args are not
    the server's, unlike `FROM vllm/vllm-openai` (the image's `args: command`)."""
    write(
        tmp_path,
        "Dockerfile",
        'FROM rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513\nCMD ["--model", "m"]\n',
    )
    run = run_cli("--show-invocations", "Dockerfile", cwd=tmp_path)
    assert "0 vLLM invocation(s)" in run.out
    write(
        tmp_path,
        "Dockerfile",
        'FROM rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513\nCMD ["vllm", "serve", "m"]\n',
    )
    assert _release(tmp_path, "Dockerfile").startswith(
        "0.8.5 (image tag rocm/vllm:rocm6.3.1_vllm_0.8.5"
    )


# -- docs/pins.md states what the package knows -------------------------------------------------


def test_the_pins_page_states_the_releases_and_image_tags_known() -> None:
    import json
    from collections import Counter

    from conftest import REPO
    from vllm_lint.release import known_releases, minor_of

    page = (REPO / "docs" / "pins.md").read_text(encoding="utf-8")
    known = known_releases()
    assert (
        f"**{len(known)} releases, every vLLM release on PyPI from {known[0]} to {known[-1]}"
        in page
    )
    series = Counter(minor_of(r) for r in known)
    assert f"in {len(series)}\nminor series" in page
    for minor, count in series.items():
        assert f"| {minor} | {count}" in page, minor
    images = json.loads((REPO / "schemas" / "server-images.json").read_text(encoding="utf-8"))
    for entry in images["images"]:
        for tag, release in (entry.get("tags") or {}).items():
            assert f"`{tag}` → {release}" in page, (entry["id"], tag)


def test_a_program_that_installs_vllm_from_a_commit_is_of_no_known_release(tmp_path: Path) -> None:
    """Modal's early examples (modal-labs/modal-examples, 2023) pinned vLLM to a commit:
    `.pip_install("vllm @ git+https://github.com/vllm-project/vllm.git@<sha>")`; the repo's
    requirements are not what that image runs."""
    write(tmp_path, "requirements.txt", "vllm==0.10.1\n")
    write(
        tmp_path,
        "app.py",
        """
        from modal import Image, Stub

        image = (
            Image.from_registry("nvcr.io/nvidia/pytorch:22.12-py3")
            .pip_install("torch==2.0.1", index_url="https://download.pytorch.org/whl/cu118")
            # Pinned to 08/15/2023
            .pip_install(
                "vllm @ git+https://github.com/vllm-project/vllm.git@805de738f618f8b47ab0d450423d23db1e636fa2",
                "typing-extensions==4.5.0",
            )
        )
        stub = Stub(image=image)

        @stub.cls(gpu="A100")
        class Model:
            def __enter__(self):
                from vllm import LLM

                self.llm = LLM("/model")
        """,
    )
    assert _release(tmp_path, "app.py") == (
        "0.34.0 (release unknown: vllm @ git+https://github.com/vllm-project/vllm.git@805de738f6"
        "18f8b47ab0d450423d23db1e636fa2 names no release; judged as 0.34.0, the newest known)"
    )
    (tmp_path / "app.py").write_text(
        (tmp_path / "app.py")
        .read_text()
        .replace("805de738f618f8b47ab0d450423d23db1e636fa2", "v0.2.1")
    )
    assert _release(tmp_path, "app.py") == (
        "0.2.1.post1 (vllm @ git+https://github.com/vllm-project/vllm.git@v0.2.1 (line 8))"
    )


def test_a_page_that_installs_a_pull_request_is_of_no_known_release(tmp_path: Path) -> None:
    """An rst page's `pip install -U "vllm @ git+…@refs/pull/52816/head"` before `vllm serve`."""
    write(
        tmp_path,
        "docs/serve.rst",
        """
        Serving
        =======

        .. code-block:: bash

           pip install -U "vllm @ git+https://github.com/vllm-project/vllm.git@refs/pull/52816/head"

           vllm serve /path/to/checkpoint --trust-remote-code
        """,
    )
    assert _release(tmp_path, "docs/serve.rst").startswith(
        "0.34.0 (release unknown: pip install git+https://github.com/vllm-project/vllm.git@refs/"
        "pull/52816/head names no release"
    )


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ("vllm/vllm-openai:v0.12.0", "0.12.0 (vllm==0.12.0 pinned in svc/Dockerfile:1)"),
        (
            "rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513",
            "0.8.5 (vllm==0.8.5 pinned in svc/Dockerfile:1)",
        ),
        ("nvcr.io/nvidia/vllm:26.01-py3", "0.11.1 (vllm==0.11.1 pinned in svc/Dockerfile:1)"),
        (
            "vllm/vllm-openai:v0.40.0",
            "0.34.0 (vllm==0.40.0 pinned in svc/Dockerfile:1: vLLM 0.40.0",
        ),
        ("nvcr.io/nvidia/vllm:25.09-py3", "0.34.0 (release unknown"),
        ("python:3.12", "0.34.0 (release unknown"),
    ],
)
def test_a_dockerfile_base_image_pins_its_folder_as_the_image_table_reads_it(
    tmp_path: Path, base: str, expected: str
) -> None:
    """`FROM rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513` (the first line of a public Dockerfile
    building an Unsloth image on it) pins the folder's other files like `FROM vllm/vllm-openai`."""
    write(tmp_path, "svc/Dockerfile", f"FROM {base}\n\nWORKDIR /app\nCOPY . .\n")
    write(tmp_path, "svc/run.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "svc/run.sh").startswith(expected)


def test_a_real_conda_export_pins_the_backend_beside_it(tmp_path: Path) -> None:
    """LocalAI's vLLM backend (tests/data/pins/SOURCES.md): `conda env export` output with
    `vllm==0.2.0` in its pip list, beside the program that builds `LLM(model=…)`. Saved as
    `environment.yml`, the name conda looks for (the folder is searched by file name)."""
    from conftest import REPO

    real = REPO / "tests" / "data" / "pins" / "mudler__LocalAI" / "backend" / "python" / "vllm"
    (tmp_path / "environment.yml").write_bytes((real / "vllm.yml").read_bytes())
    (tmp_path / "backend_vllm.py").write_bytes((real / "backend_vllm.py").read_bytes())
    assert (
        _release(tmp_path, "backend_vllm.py") == "0.2.0 (vllm==0.2.0 pinned in environment.yml:95)"
    )


def test_a_long_dependency_list_is_read_to_its_vllm(tmp_path: Path) -> None:
    """The cap on requirements looked at counts those naming vllm, not every package (the real
    conda export above lists 75, vllm 70th; a pyproject.toml's can be as long)."""
    names = [f'"package-{k}==1.0"' for k in range(100)]
    write(
        tmp_path,
        "pyproject.toml",
        f'[project]\ndependencies = [{", ".join(names)}, "vllm==0.7.3"]\n',
    )
    write(tmp_path, "serve.sh", "vllm serve org/m\n")
    assert _release(tmp_path, "serve.sh") == "0.7.3 (vllm==0.7.3 pinned in pyproject.toml:2)"
