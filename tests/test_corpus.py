"""The real-world corpus (tests/corpus/real-world/: public files at a commit, each with its URL
and license in SOURCES.md): every vLLM launch SOURCES.md lists is found, every file is read without a
crash, and nothing is an error unless justified here.

SOURCES.md lists invocation lines found by a regex; some are not launches (a router's
`args:`, a `run:` that only curls the server…). `NOT_LAUNCHES` says why for each such line,
per file; a listed line must otherwise lie inside a launch the linter reports.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS, run_cli
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_file
from vllm_lint.read import templates
from vllm_lint.read import yaml as yamlsrc

SOURCES = CORPUS / "SOURCES.md"

_HUGGINGFACESERVER = (
    "KServe's huggingfaceserver runtime: its own CLI (`--model_name`, `--model_dir`) in front "
    "of vLLM's engine args, not `vllm serve`; its flags would be misread as vLLM's"
)
_DYNAMO = (
    "NVIDIA Dynamo's `python3 -m dynamo.vllm`: Dynamo's own parser with its own flags "
    "(`--is-prefill-worker`) around the engine args, not `vllm serve`"
)
_TEMPLATE_VALUES = (
    "the chart template takes the whole command from values (`toYaml .Values…`); the chart's "
    "values.yaml (vllm-kserve-chart/values.yaml) is read as values instead"
)

# (file, line) → why that listed line is not a vLLM launch.
NOT_LAUNCHES: dict[tuple[str, int], str] = {
    ("production-stack/values.yaml", 51): "the chart's example modelSpec has `enabled: false`, "
    "which the template skips (deployment-vllm-multi.yaml L3: `ne $modelSpec.enabled false`)",
    ("production-stack/values.yaml", 134): "same example modelSpec (`enabled: false`)",
    ("production-stack/values.yaml", 158): "same example modelSpec (`enabled: false`)",
    ("production-stack/values.yaml", 566): "`extraArgs: []` of the router, not of an engine",
    ("production-stack/values.yaml", 971): "`extraArgs: []` of another component (not an engine)",
    ("production-stack/values-16-disagg-prefill.yaml", 89): "`routerSpec.extraArgs`: the "
    "router's own flags",
    ("production-stack/pd.yaml", 90): "`routerSpec.extraArgs`: the router's own flags",
    ("production-stack/production_stack_specification.yaml", 35): "SOURCES.md is wrong here: "
    "this `extraArgs` sits on the modelSpec entry, but the chart reads only "
    "`vllmConfig.extraArgs` (deployment-vllm-multi.yaml L192), so these flags never reach vLLM",
    ("production-stack/router-e2e-test.yml", 180): "an `echo` that mentions vLLM serve",
    ("kserve/config-llm-decode-worker-data-parallel.yaml", 47): "the P/D routing sidecar "
    "(`/app/pd-sidecar --vllm-port=…`)",
    ("production-stack/gpu-gpt-qwn-gem-glm-cw.tpl", 68): "the model downloader initContainer "
    "(`pip install … && hf download …`)",
    ("production-stack/gpu-gpt-qwn-gem-glm-cw.tpl", 69): "args of the same downloader",
    ("production-stack/router-e2e-test.yml", 43): "a step that installs Python packages",
    ("production-stack/router-e2e-test.yml", 78): "a step that builds the router",
    ("production-stack/router-e2e-test.yml", 174): "a step that installs Python packages",
    ("aibrix/docker-compose.yml", 40): "the redis/metadata side service, not vLLM",
    ("aibrix/docker-compose.yml", 67): "`aibrix_metadata` service",
    ("aibrix/docker-compose.yml", 91): "the envoy gateway service",
    ("aibrix/qwen-vl.yaml", 27): "the aibrix runtime sidecar container",
    ("aibrix/base.yaml", 104): "the aibrix runtime sidecar container",
    ("aibrix/qwen3-8b-pd-4p4d-multinode.yaml", 219): "the routing sidecar's args",
    ("aibrix/aibrix_kvcache_dram.yaml", 38): "the aibrix runtime sidecar container",
    ("lws/lws.yaml", 54): "the worker container runs `ray start`, not vLLM",
    ("lws/docs_examples_vllm_TPU_lws.yaml", 60): "the worker container runs `ray start`",
    ("kserve/kserve-huggingfaceserver.yaml", 4): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver.yaml", 6): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver.yaml", 21): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver.yaml", 22): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 4): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 6): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 21): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 39): "a health check script",
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 41): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 42): _HUGGINGFACESERVER,
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 79): "a liveness probe script",
    ("kserve/kserve-huggingfaceserver-multinode.yaml", 90): "a readiness probe script",
    ("kserve/config-llm-template.yaml", 161): "a `[[ … ]]` test of VLLM_ADDITIONAL_ARGS; the "
    'launch is the `eval "exec vllm serve …"` below it',
    ("kserve/config-llm-decode-worker-data-parallel.yaml", 244): "a `[[ … ]]` test; the launch "
    'is the `eval "exec vllm serve …"` below it',
    ("kserve/config-llm-decode-worker-data-parallel.yaml", 526): "a `[[ … ]]` test; the launch "
    'is the `eval "exec vllm serve …"` below it',
    ("kserve/02-lora-multi-hf-cpu.yaml", 10): "no literal flags: KServe's controller derives "
    "the LoRA flags from `spec.model.lora` (SOURCES.md says so itself)",
    ("kserve/fluid-isvc.yaml", 11): _HUGGINGFACESERVER,
    ("kserve/fluid-isvc.yaml", 15): _HUGGINGFACESERVER,
    ("kserve/e2e-test-llmisvc.yaml", 51): "SOURCES.md: negative case, the vLLM image is only "
    "named in env; these steps run kind, kubectl and make",
    ("kserve/e2e-test-llmisvc.yaml", 155): "negative case (see L51)",
    ("kserve/e2e-test-llmisvc.yaml", 193): "negative case (see L51)",
    ("kserve/e2e-test-llmisvc.yaml", 219): "negative case (see L51)",
    ("kserve/e2e-test-llmisvc.yaml", 227): "negative case (see L51)",
    ("llm-d-modelservice/output-pd.yaml", 38): "the routing proxy sidecar's args",
    ("llm-d-modelservice/output-xpu-pd.yaml", 38): "the routing proxy sidecar's args",
    ("llm-d-modelservice/output-pd-mnnvl.yaml", 38): "the routing proxy sidecar's args",
    ("llm-d/no-mtp-kustomization.yaml", 8): "a JSON patch of `env[6]`: no flags (SOURCES.md "
    "says so itself)",
    ("llm-actions/dev.yml", 47): "a step that runs a notebook container, not vLLM",
    ("llm-actions/dev.yml", 180): "`cat vllm.log`",
    ("llm-actions/dev.yml", 183): "`curl` of the running server",
    ("vllm-kserve-chart/inferenceservice.yaml", 30): "the InferenceService adds "
    "`--served-model-name={{ .Name }}` and `toYaml .Values.model.args` to the ServingRuntime's "
    "command at run time; the chart's values.yaml shows the combined launch",
    ("vllm-kserve-chart/servingruntime.yaml", 22): _TEMPLATE_VALUES,
    ("vllm-kserve-chart/servingruntime.yaml", 24): _TEMPLATE_VALUES,
    ("tandemn-tuna/vllm.yaml.tpl", 22): "the whole command is one str.format placeholder "
    "(`{vllm_cmd}`), filled in by Python: nothing literal to read",
    ("opea-genaiinfra/deployment.yaml", 53): "image and command come from values "
    "(`{{ .Values.image.repository }}`, `extraCmd`); the values files are read as values",
    ("opea-genaiinfra/deployment.yaml", 95): "the `{{ if }}` around extraCmdArgs (see L53)",
    ("opea-genaiinfra/deployment.yaml", 96): "the `{{ range }}` over extraCmdArgs (see L53)",
    ("dynamo/disagg.yaml", 31): _DYNAMO,
    ("dynamo/disagg.yaml", 32): _DYNAMO,
    ("dynamo/disagg.yaml", 51): _DYNAMO,
    ("dynamo/disagg.yaml", 52): _DYNAMO,
    ("dynamo/agg_lora.yaml", 59): _DYNAMO,
    ("dynamo/agg_lora.yaml", 60): _DYNAMO,
}


@cache
def listed() -> dict[str, list[tuple[int, str]]]:
    """SOURCES.md: file → [(line, text)] of its listed invocations."""
    entries: dict[str, list[tuple[int, str]]] = {}
    current = None
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"### \d+\. `([^`]+)`", line)
        if heading:
            current = heading.group(1)
            entries[current] = []
            continue
        item = re.match(r"  - L(\d+): `?(.*?)`?$", line)
        if item and current is not None:
            entries[current].append((int(item.group(1)), item.group(2)))
    return entries


def extents(path: Path) -> list[tuple[int, int]]:
    """The lines each reported launch covers: where it is written through its last word."""
    result = lint_file(str(path), Options(root=CORPUS))
    found = []
    for inv in result.invocations:
        lines = [t.span.line for t in inv.argv] + [t.span.end_line for t in inv.argv]
        if inv.anchor is not None:
            lines += [inv.anchor.line, inv.anchor.end_line]
        if lines:
            found.append((min(lines), max(lines)))
    return found


_ARGV_KEYS = frozenset({"command", "args", "entrypoint"})


def structure(path: Path) -> dict[int, list[tuple[int, int]]]:
    """Line → line ranges of the YAML values keyed on that line (and of list items that
    start on it): a listed `args:` or `- name: …` line is found when its value holds a launch."""
    text = path.read_text(encoding="utf-8")
    try:
        yf = yamlsrc.load(str(path), text)
    except yamlsrc.YamlError:
        try:
            yf = yamlsrc.load(str(path), templates.mask(text, str(path)).text)
        except yamlsrc.YamlError:
            return {}
    ranges: dict[int, list[tuple[int, int]]] = {}

    def last_line(node: Any) -> int:
        end = node.end_mark
        return end.line if end.column == 0 and end.line > node.start_mark.line else end.line + 1

    for document in yf.documents:
        for node in yamlsrc.walk(document):
            if yamlsrc.is_mapping(node):
                for key, value in node.value:
                    line = key.start_mark.line + 1
                    ranges.setdefault(line, []).append((line, last_line(value)))
                    if yamlsrc.text_of(key) in _ARGV_KEYS:  # command and args launch together
                        ranges[line].append((node.start_mark.line + 1, last_line(node)))
            elif yamlsrc.is_sequence(node):
                for item in node.value:
                    line = item.start_mark.line + 1
                    ranges.setdefault(line, []).append((line, last_line(item)))
    return ranges


def covered(line: int, found: list[tuple[int, int]], keyed: list[tuple[int, int]]) -> bool:
    if any(lo <= line <= hi for lo, hi in found):
        return True
    return any(lo <= b and a <= hi for a, b in keyed for lo, hi in found)


@pytest.mark.parametrize("name", sorted(listed()))
def test_every_listed_invocation_is_found(name: str) -> None:
    path = CORPUS / name
    assert path.is_file(), f"SOURCES.md lists {name}, which the corpus does not hold"
    found = extents(path)
    keyed = structure(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    missing = []
    for line, text in listed()[name]:
        if (name, line) in NOT_LAUNCHES:
            continue
        ranges = keyed.get(line, [])
        if re.fullmatch(r"\s*\w+=\(", lines[line - 1]):  # `ARGS=(`: the array's first word
            ranges = [(line, line + 1)]
        if not covered(line, found, ranges):
            missing.append(f"L{line}: {text}")
    assert not missing, f"{name}: launches at {found}; not found: {missing}"


def test_every_explanation_is_for_a_listed_line() -> None:
    stale = [key for key in NOT_LAUNCHES if key[1] not in {ln for ln, _ in listed()[key[0]]}]
    assert not stale
    assert all(len(why) > 10 for why in NOT_LAUNCHES.values())


def corpus_files() -> list[str]:
    return sorted(
        str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.is_file() and p != SOURCES
    )


@pytest.mark.parametrize("name", corpus_files())
def test_every_corpus_file_is_read_without_a_crash(name: str) -> None:
    run = run_cli("--format", "json", "--fail-on", "error", name, cwd=CORPUS)
    assert run.code in (0, 1), run.err
    assert "internal error" not in run.err and "Traceback" not in run.err
    assert json.loads(run.out)["findings"] is not None


# -- error-level findings ----------------------------------------------------------------------

_NEWEST = "the file names no vLLM release (its image is not tagged with one), so the newest known"
_NOTES5 = "corpus-notes.md §5 lists it as rejected by the releases that removed the flag"
_BNB = (
    "bitsandbytes left QuantizationMethods in 0.28 (vllm/model_executor/layers/quantization/"
    "__init__.py); 0.34.0 oracle: 'Unknown quantization method: bitsandbytes' "
    f"(vllm/config/model.py:1486); {_NEWEST}"
)

# (file, text at the finding's span, up to `=`) → why vLLM refuses it for the release checked.
JUSTIFIED_ERRORS: dict[tuple[str, str], str] = {
    ("aibrix/deployment-tp.yaml", "--disable-fastapi-docs"): "--disable-fastapi-docs is new in "
    "vLLM 0.6.2 (the 0.6.1 and 0.6.2 wheels' vllm/entrypoints/openai/cli_args.py); the image "
    "aibrix/vllm-openai:v0.6.1-edb07092-20250118 is read as 0.6.1, though its suffix says an "
    "AIBrix build of a later commit (issue 24 part 4: such tags are to say the release is unknown)",
    ("ai-infra-summit/docker-compose.vllm.yaml", "--enable-reasoning"): f"{_NOTES5}; {_NEWEST}",
    ("ai-infra-summit/docker-compose.vllm.yaml", "--task"): "--task left vLLM after 0.12 "
    f"(flag catalogs); {_NEWEST}",
    ("aibrix/aibrix_kvcache_dram.yaml", "--swap-space"): f"{_NOTES5}; the aibrix-kvcache tag "
    "is not a vLLM release, so the newest known",
    ("aibrix/lmcache_helm_stack.yaml", "--swap-space"): f"{_NOTES5}; lmcache's dated tag is "
    "not a vLLM release",
    ("dstack/120b.dstack.yml", '"full_cuda_graph"'): "`full_cuda_graph` left CompilationConfig "
    "after 0.10 (vllm/config/compilation.py has it in 0.10.2, not in 0.11.2) and unknown keys "
    f"are refused from 0.16; rocm/vllm-dev's tag is a date: {_NEWEST}",
    ("kubeai/deepseek-r1-mi300x.yaml", "--num-scheduler-steps"): f"{_NOTES5}; KubeAI's Model "
    "names no image",
    ("kubeai/deepseek-r1-mi300x.yaml", "--max-seq-len-to-capture"): _NOTES5,
    ("kubeai/deepseek-r1-mi300x.yaml", "--enable-chunked-prefill"): "`=false` on a switch "
    "(corpus-notes.md §5)",
    ("kubeai/values.yaml", "--swap-space"): _NOTES5,
    ("kubeai/values.yaml", "--num-scheduler-steps"): _NOTES5,
    ("kubeai/values.yaml", "--max-seq-len-to-capture"): _NOTES5,
    ("kubeai/values.yaml", "--enable-chunked-prefill"): "`=false` on a switch (§5)",
    ("kubeai/values.yaml", "--quantization"): _BNB,
    ("PesticideRecipeGen/vllm_config.yaml", "bitsandbytes"): _BNB,
    ("kuberay/ray-service.llm-serve.yaml", "device"): "engine_kwargs `device`: not an EngineArgs "
    f"field from 0.15 (§5); the ray-llm image's vLLM is unknown: {_NEWEST}",
    ("llmaz/vllm.yaml", "--speculative_model"): f"{_NOTES5}; the chart's image tag is templated",
    ("llmaz/vllm.yaml", "--num_speculative_tokens"): _NOTES5,
    ("opea-genaicomps/compose.yaml", "--swap-space"): _NOTES5,
    ("opea-genaicomps/compose.yaml", "--num-scheduler-steps"): _NOTES5,
    ("opea-genaicomps/gaudi-values.yaml", "--max-seq-len-to-capture"): _NOTES5,
    (
        "opea-genaicomps/comps_agent_deployment_kubernetes_gaudi-values.yaml",
        "--max-seq-len-to-capture",
    ): _NOTES5,
    ("opea-genaiinfra/rocm-values.yaml", "--swap-space"): _NOTES5,
    ("opea-genaiinfra/rocm-values.yaml", "--num-scheduler-steps"): _NOTES5,
    ("vllm/k8s-monitoring-vllm-deployment.yaml", "Qwen/Qwen3-235B-A22B"): "`serve` given as "
    "an argument to an image whose entrypoint is already `vllm serve`: a second positional (§5)",
    ("vllm/k8s-monitoring-vllm-deployment.yaml", "--log-requests"): "not a vLLM flag (§5)",
}


@cache
def corpus_findings(*args: str) -> list[dict[str, Any]]:
    run = run_cli("--format", "json", "--fail-on", "never", *args, ".", cwd=CORPUS)
    assert run.code == 0, run.err
    return list(run.json()["findings"])


def _written(finding: dict[str, Any]) -> str:
    line = (CORPUS / finding["path"]).read_text(encoding="utf-8").splitlines()[finding["line"] - 1]
    end = finding["end_col"] - 1 if finding["end_line"] == finding["line"] else None
    return line[finding["col"] - 1 : end]


def _justification(finding: dict[str, Any]) -> str | None:
    written = _written(finding)
    for (name, needle), why in JUSTIFIED_ERRORS.items():
        if finding["path"] == name and written.startswith(needle):
            return why
    return None


def _refused(finding: dict[str, Any]) -> bool:
    """An error, or one judged on a guessed release (reported as a warning: the release that
    runs may accept it) by a rule whose severity is error."""
    if finding["severity"] == "error":
        return True
    release = finding["release"] or {}
    return bool(release.get("guessed")) and _rule_severity(finding["rule"]) == "error"


@cache
def _rule_severity(rule_id: str) -> str:
    from vllm_lint.rules.registry import builtin_rules

    return next(r.severity.label for r in builtin_rules() if r.id == rule_id)


def test_no_error_in_the_corpus_without_a_justification() -> None:
    errors = [f for f in corpus_findings() if _refused(f)]
    unexplained = [
        f"{f['path']}:{f['line']}:{f['col']} {f['rule']} {_written(f)!r}"
        for f in errors
        if _justification(f) is None
    ]
    assert not unexplained
    used = {
        (f["path"], n)
        for f in errors
        for (p, n) in JUSTIFIED_ERRORS
        if p == f["path"] and _written(f).startswith(n)
    }
    assert set(JUSTIFIED_ERRORS) == used, "justified but no longer reported"


JUSTIFIED_WARNINGS = {
    ("aibrix/aibrix_kvcache_dram.yaml", 93): "VL024: AIBrixOffloadingConnector is registered by "
    "AIBrix's own vLLM image, not by vLLM 0.34.0 (the release assumed for an untagged image)",
    ("production-stack/gpu-gpt-qwn-gem-glm-cw.tpl", 313): "VL920: `cacheserverSpec.repository` "
    "really is written twice (L308 and L313); Helm keeps the last",
}


# Warnings about what vLLM ignores, true of the files as written: a `VLLM_*` variable the
# release's vllm/envs.py lacks (VL015: VLLM_USE_V1 is gone after 0.10, VLLM_ATTENTION_BACKEND
# after 0.14 …) and a LoRA flag without --enable-lora (VL021). Each is held to its line: the
# name the message gives is the word written there, so none comes from reading a file wrong.
IGNORED_BY_VLLM = {"VL015", "VL021"}
# variables an operator sets from a field of its resource (production-stack's VLLMRuntime
# `v1: true` is VLLM_USE_V1=1)
SET_BY_AN_OPERATOR = {
    ("production-stack/production-stack_v1alpha1_vllmruntime.yaml", 32),
    ("production-stack/vllm-runtime.yaml", 10),
}


def _bare(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "")


def test_no_warning_in_the_corpus_without_a_justification() -> None:
    """Warnings fail a pre-commit run by default: none may come from reading a file wrong."""
    found = [f for f in corpus_findings() if f["severity"] == "warning" and not _refused(f)]
    misread = []
    for f in found:
        if f["rule"] in IGNORED_BY_VLLM and (f["path"], f["line"]) not in SET_BY_AN_OPERATOR:
            # the finding is on the variable's value (its name on that line or the one above)
            # (a chart's key for a flag: maxLoras for --max-loras)
            lines = (CORPUS / f["path"]).read_text(encoding="utf-8").splitlines()
            name = f["message"].split()[0]
            near = " ".join(lines[f["line"] - 2 : f["line"]])
            if _bare(name) not in _bare(near):
                misread.append((f["path"], f["line"], name))
    assert not misread
    ignored = [f for f in found if f["rule"] in IGNORED_BY_VLLM]
    assert {f["rule"] for f in ignored} == IGNORED_BY_VLLM  # the corpus has both kinds
    warnings = {(f["path"], f["line"]) for f in found if f["rule"] not in IGNORED_BY_VLLM}
    assert warnings == set(JUSTIFIED_WARNINGS)


# -- known-broken files, release by release ----------------------------------------------------

# corpus-notes.md §5, read through this sources (CRDs, Helm values, compose, run
# blocks, templates, engine_kwargs): (file, flag as vLLM's parser sees it, text on its line)
KNOWN_BROKEN = [
    ("kubeai/deepseek-r1-mi300x.yaml", "--num-scheduler-steps", "--num-scheduler-steps"),
    ("kubeai/values.yaml", "--max-seq-len-to-capture", "--max-seq-len-to-capture"),
    ("opea-genaiinfra/rocm-values.yaml", "--swap-space", '"--swap-space"'),
    ("opea-genaicomps/gaudi-values.yaml", "--max-seq-len-to-capture", "--max-seq-len-to-capture"),
    ("opea-genaicomps/compose.yaml", "--swap-space", "--swap-space"),
    ("aibrix/lmcache_helm_stack.yaml", "--swap-space", '"--swap-space"'),
    ("ai-infra-summit/docker-compose.vllm.yaml", "--enable-reasoning", "--enable-reasoning"),
    ("llmaz/test_config_backends_vllm.yaml", "--speculative-model", "--speculative_model"),
    ("dstack/120b.dstack.yml", "--disable-log-requests", "--disable-log-requests"),
    ("tandemn-tuna/config.yaml.tpl", "--disable-log-requests", "--disable-log-requests"),
    ("ai-on-gke/vllm.tftpl", "--swap-space", '"--swap-space"'),
    ("kuberay/ray-service.llm-serve.yaml", "--device", "device: auto"),
]


def _releases(flag: str) -> tuple[list[str], list[str]]:
    """Releases whose parser lacks `flag` (and has no unique abbreviation for it), and the
    ones that accept it."""
    from vllm_lint.argv.catalog import catalog_for, known_releases

    rejecting, accepting = [], []
    for release in known_releases():
        cat = catalog_for(release)
        if cat.resolve(flag) is None and cat.abbreviation(flag) is None:
            rejecting.append(release)
        elif cat.resolve(flag) is not None:
            accepting.append(release)
    return rejecting, accepting


@pytest.mark.parametrize(("name", "flag", "written"), KNOWN_BROKEN)
def test_known_broken_files_are_reported_for_the_releases_that_reject_them(
    name: str, flag: str, written: str
) -> None:
    lines = (CORPUS / name).read_text(encoding="utf-8").splitlines()
    where = {k + 1 for k, text in enumerate(lines) if written in text}
    assert where, f"{written!r} is not in {name}"
    rejecting, accepting = _releases(flag)
    assert rejecting, f"no known release rejects {flag}"
    for release in {rejecting[0], rejecting[-1]}:
        run = run_cli("--format", "json", "--vllm-version", release, name, cwd=CORPUS)
        errors = {f["line"] for f in run.json()["findings"] if f["severity"] == "error"}
        assert where & errors, f"{name}: {flag} not reported for vLLM {release}"
    if accepting:  # and the same file is fine where the flag still exists
        run = run_cli("--format", "json", "--vllm-version", accepting[-1], name, cwd=CORPUS)
        errors = {
            f["line"]
            for f in run.json()["findings"]
            if f["severity"] == "error" and flag.lstrip("-") in f["message"].replace("_", "-")
        }
        assert not where & errors, f"{name}: {flag} reported for vLLM {accepting[-1]}"
