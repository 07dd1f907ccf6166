"""The launch-shapes corpus (tests/corpus/shapes/, real public files, labels in launches.json):
every labelled launch is found at its line, no labelled not-launch line is reported as a launch,
and every launch reported is a labelled one. Each repository folder is linted as its owner would
lint it (`vllm-lint <repo>`: the folder is the root, so COPY, `source`, mounts and pins resolve).

A few labelled launches are out of reach, each for a stated reason (`OUT_OF_REACH`); the test
fails when one of them starts being found, so the list stays true.
"""

from __future__ import annotations

import collections
import json
from functools import cache
from pathlib import Path

import pytest

from vllm_lint.files.collect import expand
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_paths

SHAPES = Path(__file__).parent / "corpus" / "shapes"

# (file, line) → why the launch written there is not found.
OUT_OF_REACH: dict[tuple[str, int], str] = {
    ("AI-Hypercomputer__maxtext/tests/inference/benchmark_vllm.sh", 78): "the program is "
    '`$PYTHON_EXEC` with `PYTHON_EXEC=${PYTHON_EXEC:-"python3"}`: an environment value may name '
    "any program, so the word is not read as python",
    (
        "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml/gke-model-armor/preparing-the-model/"
        "vllm-gemma-deployment.yaml",
        55,
    ): "the file is not valid YAML (a sequence indented less than its key, line 37): VL901",
    ("jasl__vllm-ds4-sm120-harness/scripts/dgx_spark_start_mp_serve.sh", 282): "the script is a "
    "heredoc sent to `ssh` by a shell function; heredoc bodies are text, never commands",
    ("jasl__vllm-ds4-sm120-harness/scripts/dgx_spark_start_mp_serve.sh", 369): "same heredoc",
    ("langtech-bsc__magma/actions/addons/tgi.sh", 5): "`singularity run …/vllm-inference.sif`: "
    "nothing in the repo says this image file's runscript is the vLLM server",
    ("luisefigueroa__pulsar-gb10-vllm-stack/cluster/start-cluster.sh", 166): "the docker "
    "command is built in an array by one function and run by another",
    (
        "opea-project__GenAIComps/comps/llms/deployment/docker_compose/compose_text-generation.yaml",
        161,
    ): "the server starts in a script bind-mounted into the container and run as `bash FILE`",
    ("opea-project__GenAIComps/comps/third_parties/vllm/src/Dockerfile.amd_gpu", 22): "vLLM's "
    "module copied to /workspace/api_server.py by RUN cp and run as a script",
    ("substratusai__vllm-docker/k8s-deployment.yaml", 19): "the image is built from the repo's "
    "Dockerfile, but nothing in the repo names that image's tag next to the Dockerfile",
    ("vllm-project__tpu-inference/.buildkite/features/multi-host.yml", 33): "the command is a "
    "string argument to a repo script (run_multihost.sh) that runs it",
    ("vllm-project__tpu-inference/.buildkite/pipeline_jax.yml", 462): "same: an argument of "
    "run_multihost.sh",
    ("vllm-project__tpu-inference/.buildkite/pipeline_jax.yml", 603): "a `bash -c` given to "
    "a repo script (run_in_docker.sh) as its arguments",
}


# Issue 27's classes (the shapes that name them; configmap-script is a form of embedded-script).
CLASS_SHAPES = {
    "hardware-grant",
    "engine-command",
    "foreign-llm",
    "vllm-alias",
    "embedded-script",
    "configmap-script",
}
_NEWEST = "no vLLM release is named where the file is linted, so the newest known (0.34.0)"
_RAY_IMAGE = "the Ray image's tag names no vLLM release, so the newest known (0.34.0)"
_TYPE_ERROR = "a keyword AsyncEngineArgs does not take is a TypeError whatever its value"
# (file, rule, line) -> why vLLM refuses or ignores what is written, for the release judged.
JUSTIFIED: dict[tuple[str, str, int], str] = {
    (
        "GoogleCloudPlatform__kubernetes-engine-samples/app-design-center/ai-inference/templates/"
        "deployment.yaml",
        "VL002",
        41,
    ): "--num-scheduler-steps left vLLM in 0.10.1 (vllm 0.10.0 vllm/engine/arg_utils.py:803, "
    f"absent from 0.10.1); the chart's values.yaml runs v0.19.1, and {_NEWEST}: wrong in both",
    ("agents-x-project__PyVision-RL/verl_agents/slurm_scripts/run_serve_llm.sh", "VL007", 10): (
        '--limit-mm-per-prompt "image=50" is the key=value form; the flag\'s type is json from '
        f"0.10.0 (flag catalogs: json_or_kvs -> json); {_NEWEST}"
    ),
    (
        "awslabs__ai-on-eks/blueprints/inference/vllm-ray-gpu-deepseek/ray-vllm-deepseek.yml",
        "VL023",
        90,
    ): "disable_log_requests: not an EngineArgs field 0.17.0-0.32.0 and from 0.33.0 only the "
    f"CLI negation of --enable-log-requests (flag catalogs); {_TYPE_ERROR}; {_RAY_IMAGE}",
    (
        "awslabs__ai-on-eks/blueprints/inference/vllm-ray-gpu-deepseek/ray-vllm-deepseek.yml",
        "VL023",
        91,
    ): "device left EngineArgs in 0.10.0 (vllm 0.9.2 vllm/engine/arg_utils.py:818, deprecated); "
    f"{_TYPE_ERROR}; {_RAY_IMAGE}",
    ("awslabs__ai-on-eks/blueprints/inference/vllm-rayserve-gpu/vllm_serve.py", "VL023", 41): (
        "tokenizer_pool_size left EngineArgs in 0.10.0 (vllm 0.9.2 vllm/engine/arg_utils.py:743: "
        f"tokenizer pools had no effect); {_TYPE_ERROR}; {_RAY_IMAGE}"
    ),
    ("awslabs__ai-on-eks/blueprints/inference/vllm-rayserve-gpu/vllm_serve.py", "VL023", 42): (
        "tokenizer_pool_type left EngineArgs in 0.10.0 (vllm 0.9.2 vllm/engine/arg_utils.py:745); "
        f"{_TYPE_ERROR}; {_RAY_IMAGE}"
    ),
    ("awslabs__ai-on-eks/blueprints/inference/vllm-rayserve-gpu/vllm_serve.py", "VL023", 48): (
        f"disable_log_requests, as on ray-vllm-deepseek.yml:90; {_RAY_IMAGE}"
    ),
    (
        "awslabs__ai-on-eks/blueprints/inference/vllm-rayserve-inf2/vllm-rayserve-deployment.yaml",
        "VL023",
        99,
    ): f"disable_log_requests, as on ray-vllm-deepseek.yml:90; {_RAY_IMAGE}",
    (
        "awslabs__ai-on-eks/blueprints/inference/vllm-rayserve-inf2/vllm-rayserve-deployment.yaml",
        "VL023",
        100,
    ): f"device, as on ray-vllm-deepseek.yml:91; {_RAY_IMAGE}",
    ("huggingface__open-r1/slurm/experimental/serve_r1_vllm.slurm", "VL002", 83): (
        "--max-seq-len-to-capture left vLLM in 0.11.0 (vllm 0.10.2 vllm/engine/arg_utils.py:532, "
        f"absent from 0.11.0); {_NEWEST}"
    ),
    ("huggingface__open-r1/slurm/experimental/serve_r1_vllm.slurm", "VL004", 84): (
        "--enable-chunked-prefill true: a plain switch from 0.8.5 (flag catalogs: the "
        f"StoreBoolean action with nargs '?' was dropped), so argparse refuses `true`; {_NEWEST}"
    ),
    ("huggingface__open-r1/slurm/experimental/serve_r1_vllm.slurm", "VL002", 85): (
        "--preemption-mode left vLLM in 0.11.0 (vllm 0.10.2 vllm/engine/arg_utils.py:871); "
        f"{_NEWEST}"
    ),
    ("huggingface__open-r1/slurm/experimental/serve_r1_vllm.slurm", "VL002", 86): (
        f"--swap-space left vLLM in 0.18.0 (vllm 0.17.1 vllm/engine/arg_utils.py:951); {_NEWEST}"
    ),
    ("vllm-project__production-stack/helm/templates/deployment-vllm-multi.yaml", "VL015", 241): (
        "VLLM_USE_V1 left vllm/envs.py after 0.11.0 (schemas/envs/); vLLM logs 'Unknown vLLM "
        f"environment variable' and ignores it; the image tag is templated: {_NEWEST}"
    ),
    ("vllm-project__production-stack/helm/templates/deployment-vllm-multi.yaml", "VL015", 289): (
        "VLLM_RPC_TIMEOUT left vllm/envs.py after 0.22.1 (schemas/envs/); ignored with a "
        f"warning; the image tag is templated: {_NEWEST}"
    ),
}


@cache
def labels() -> list[dict]:
    return list(json.loads((SHAPES / "launches.json").read_text(encoding="utf-8"))["files"])


@cache
def reported() -> dict[str, list[tuple[int, int]]]:
    """(first, last) line of the anchor of each launch reported, per corpus file."""
    found: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    for repo in sorted(p for p in SHAPES.iterdir() if p.is_dir()):
        for result in lint_paths(expand([str(repo)], repo), Options(root=repo)):
            rel = Path(result.path).resolve().relative_to(SHAPES.resolve()).as_posix()
            for inv in result.invocations:
                assert inv.anchor is not None, f"{rel}: a launch without an anchor"
                found[rel].append((inv.anchor.line, inv.anchor.end_line))
    return found


def _at(rel: str, line: int) -> bool:
    return any(line in (a, b) for a, b in reported().get(rel, []))


@pytest.mark.parametrize("entry", labels(), ids=lambda e: e["path"])
def test_each_labelled_launch_is_found_and_nothing_else(entry: dict) -> None:
    rel = entry["path"]
    launches = {launch["line"] for launch in entry.get("launches", [])}
    missed = [
        line for line in sorted(launches) if not _at(rel, line) and (rel, line) not in OUT_OF_REACH
    ]
    assert not missed, f"{rel}: labelled launches not found at lines {missed}"
    negatives = [n["line"] for n in entry.get("not_launches", []) if _at(rel, n["line"])]
    assert not negatives, f"{rel}: reported as launches, labelled not: {negatives}"
    extra = [a for a, b in reported().get(rel, []) if a not in launches and b not in launches]
    assert not extra, f"{rel}: launches reported at unlabelled lines {extra}"


def test_out_of_reach_is_true() -> None:
    """Every listed miss is a labelled launch that is still not found."""
    labelled = {(e["path"], launch["line"]) for e in labels() for launch in e["launches"]}
    assert set(OUT_OF_REACH) <= labelled
    found = [key for key in OUT_OF_REACH if _at(*key)]
    assert not found, f"found now, drop them from OUT_OF_REACH: {found}"


def test_every_shape_of_the_issue_has_a_case() -> None:
    """Shapes with no licensed public file are covered by cases written for the tests."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_labels", SHAPES / "check_labels.py")
    assert spec is not None and spec.loader is not None
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)  # the corpus' own list of the issue's shapes
    all_shapes: set[str] = checker.SHAPES
    in_corpus = {s for e in labels() for s in e["shapes"]}
    written = (Path(__file__).parent / "cases" / "sources").rglob("*")
    text = "\n".join(
        p.read_text(encoding="utf-8", errors="replace") for p in written if p.is_file()
    )
    missing = []
    for shape in sorted(all_shapes - in_corpus):
        word = {
            "just": "justfile",
            "taskfile": "tasks:",
            "pbs": "#PBS",
            "lsf": "#BSUB",
            "sbatch-wrap": "--wrap",
            "mpirun": "mpirun",
            "deepspeed": "deepspeed",
            "numactl": "numactl",
            "taskset": "taskset",
            "stdbuf": "stdbuf",
            "conda-run": "conda run",
            "poetry-run": "poetry run",
            "kubectl-run": "kubectl run",
            "dockerfile-shell-form": "CMD vllm serve",
            # issue 27's Python classes: their real files are in tests/corpus/python; the
            # golden case python-api/imports holds both
            "foreign-llm": "from tensorrt_llm import LLM",
            "vllm-alias": "LLM as Engine",
        }.get(shape, shape)
        if word not in text:
            missing.append(shape)
    assert not missing


def test_every_error_and_warning_on_a_file_of_issue_27s_classes_is_justified() -> None:
    """The files of issue 27's classes: what is refused or ignored there is said, with why."""
    files = {e["path"] for e in labels() if CLASS_SHAPES & set(e["shapes"])}
    reported = set()
    for repo in sorted({f.split("/", 1)[0] for f in files}):
        for result in lint_paths(
            expand([str(SHAPES / repo)], SHAPES / repo), Options(root=SHAPES / repo)
        ):
            rel = Path(result.path).resolve().relative_to(SHAPES.resolve()).as_posix()
            if rel not in files:
                continue
            reported |= {
                (rel, f.rule, f.span.line)
                for f in result.findings
                if f.severity.label in ("error", "warning")
            }
    assert reported - set(JUSTIFIED) == set(), "unexplained"
    assert set(JUSTIFIED) - reported == set(), "justified but no longer reported"
