"""Helm values files of the charts that launch vLLM, rendered to argv as each chart does.

- vllm-project/production-stack: `servingEngineSpec.modelSpec[]`, both the Deployment
  template (`helm/templates/deployment-vllm-multi.yaml`) and the Ray path
  (`helm/templates/ray-cluster.yaml`, when `raySpec.enabled`). Mapping: corpus-notes §4.1,
  checked against the stored templates (commit a6c01db), including the chart's defaults
  (`--no-enable-prefix-caching` whenever `vllmConfig` lacks `enablePrefixCaching: true`).
- vLLM's own chart (`image.command` holds the whole command line).
- llm-d-modelservice (`decode`/`prefill.containers[].modelCommand`: vllmServe, imageDefault).
- OPEA's vllm chart (`extraCmdArgs` first, then `--model LLM_MODEL_ID …`; umbrella `vllm:`).
- Red Hat vllm-kserve (`servingRuntime.command/args` + `--served-model-name` + `model.args`).
- KubeAI's models chart (`catalog.<name>` with `engine: VLLM`) is read by `crds.py`.

Values a chart takes from elsewhere (a helper, the chart's defaults) are opaque words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation, Token
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    span,
    text_of,
    text_token,
    token,
)
from vllm_lint.sources.chart_argv import ArgvBuilder, go_value, has_key, key_node, truthy
from vllm_lint.sources.commandline import Word, invocations
from vllm_lint.sources.document import Document
from vllm_lint.sources.kubernetes import env_list
from vllm_lint.sources.programs import server_args
from vllm_lint.sources.shell_commands import yaml_invocation

_SERVER_SCRIPT = re.compile(r"(?:.*/)?api_server\.py")


def find(doc: Document) -> Iterator[Invocation]:
    yf = doc.yf
    for document in yf.documents:
        if not is_mapping(document):
            continue
        yield from _production_stack(yf, document)
        yield from _vllm_chart(yf, document)
        yield from _llm_d_modelservice(yf, document)
        yield from _opea(yf, document)
        yield from _redhat_vllm_kserve(yf, document)


def _image(yf: YamlFile, repository: Any, tag: Any) -> Token | None:
    """`repository:tag` as one image word spanning the repository value."""
    repo = text_of(repository)
    if not repo:
        return None
    tag_text = go_value(tag) if tag is not None else None
    text = f"{repo}:{tag_text}" if tag_text else repo
    return Token(text, token(yf, repository).span, opaque="{{" in text)


# -- production-stack ---------------------------------------------------------------------


def _production_stack(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    spec = get(document, "servingEngineSpec")
    specs = get(spec, "modelSpec")
    if not is_sequence(specs):
        return
    if has_key(spec, "enableEngine") and not truthy(get(spec, "enableEngine")):
        return
    engine_env = env_list(yf, get(spec, "env"))
    for item in specs.value:
        if not is_mapping(item):
            continue
        enabled = get(item, "enabled")
        if is_scalar(enabled) and text_of(enabled) is not None and go_value(enabled) == "false":
            continue  # `ne $modelSpec.enabled false`
        name = text_of(get(item, "name")) or "?"
        image = _image(yf, get(item, "repository"), get(item, "tag"))
        ray = get(item, "raySpec")
        if is_mapping(ray) and truthy(get(ray, "enabled")):
            argv, env = _stack_ray(yf, item)
            origin = f"production-stack modelSpec {name} (Ray)"
        else:
            argv, env = _stack_deployment(yf, item)
            origin = f"production-stack modelSpec {name}"
        anchor = key_node(item, "modelURL") or item
        yield yaml_invocation(yf, argv, origin, anchor, image, {**engine_env, **env})


def _stack_head(b: ArgvBuilder, item: Any) -> None:
    """The model and the address, which both templates write first."""
    model = get(item, "modelURL")
    if model is not None:
        b.value(model)
    else:
        b.opaque("<modelURL>", item)
    where = key_node(item, "modelURL") or item
    b.flag("--host", where)
    b.flag("0.0.0.0", where)
    b.flag("--port", where)
    b.opaque("<container port>", where)  # a chart helper decides it


def _stack_tools(b: ArgvBuilder, item: Any) -> None:
    if truthy(get(item, "enableLoRA")):
        b.flag("--enable-lora", key_node(item, "enableLoRA"))
    if truthy(get(item, "enableTool")):
        b.flag("--enable-auto-tool-choice", key_node(item, "enableTool"))
    if truthy(get(item, "toolCallParser")):
        b.flag("--tool-call-parser", key_node(item, "toolCallParser"))
        b.value(get(item, "toolCallParser"))


def _stack_deployment(yf: YamlFile, item: Any) -> tuple[list[Token], dict[str, Token]]:
    """deployment-vllm-multi.yaml L130-221."""
    b = ArgvBuilder(yf)
    _stack_head(b, item)
    _stack_tools(b, item)
    config = get(item, "vllmConfig")
    env: dict[str, Token] = {}
    if truthy(config):  # `{{- with $modelSpec.vllmConfig }}`
        if has_key(config, "enableChunkedPrefill"):
            on = truthy(get(config, "enableChunkedPrefill"))
            b.flag(
                "--enable-chunked-prefill" if on else "--no-enable-chunked-prefill",
                key_node(config, "enableChunkedPrefill"),
            )
        where = key_node(config, "enablePrefixCaching") or key_node(item, "vllmConfig")
        if truthy(get(config, "enablePrefixCaching")):
            b.flag("--enable-prefix-caching", where)
        else:
            b.flag("--no-enable-prefix-caching", where)  # the chart's default
        for flag, key in (
            ("--max-model-len", "maxModelLen"),
            ("--dtype", "dtype"),
            ("--tensor-parallel-size", "tensorParallelSize"),
            ("--max-num-seqs", "maxNumSeqs"),
            ("--gpu_memory_utilization", "gpuMemoryUtilization"),
            ("--max_loras", "maxLoras"),
            ("--runner", "runner"),
            ("--convert", "convert"),
        ):
            b.option(flag, config, key)
        if truthy(get(config, "extraArgs")):
            b.items(get(config, "extraArgs"))
        v0 = get(config, "v0")
        if has_key(config, "v0") and go_value(v0) == "1":
            env["VLLM_USE_V1"] = Token("0", span(yf, key_node(config, "v0")))
    if truthy(get(item, "modelRevision")):
        b.flag("--revision", key_node(item, "modelRevision"))
        b.value(get(item, "modelRevision"))
    _stack_lmcache(b, item, config, ray=False)
    if truthy(get(item, "chatTemplate")):
        b.flag("--chat-template", key_node(item, "chatTemplate"))
        b.value(get(item, "chatTemplate"), f"/templates/{go_value(get(item, 'chatTemplate'))}")
    env.update(env_list(yf, get(item, "env")))
    return b.words, env


def _stack_lmcache(b: ArgvBuilder, item: Any, config: Any, ray: bool) -> None:
    lmcache = get(item, "lmcacheConfig")
    if not truthy(lmcache) or not truthy(get(lmcache, "enabled")):
        return
    where = key_node(lmcache, "enabled")
    b.flag("--kv-transfer-config", where)
    if ray:  # ray-cluster.yaml keys the connector on vllmConfig.v1
        v1 = go_value(get(config, "v1")) if has_key(config, "v1") else None
        connector = "LMCacheConnectorV1" if v1 == "1" else "LMCacheConnector"
        b.flag(json.dumps({"kv_connector": connector, "kv_role": "kv_both"}), where)
        return
    role = go_value(get(lmcache, "kvRole")) if truthy(get(lmcache, "kvRole")) else "kv_both"
    if has_key(lmcache, "enablePD"):
        port = go_value(get(lmcache, "nixlRole")) or ""
        extra = f'{{"discard_partial_chunks": false, "lmcache_rpc_port": {json.dumps(port)}}}'
        value = (
            f'{{"kv_connector":"LMCacheConnectorV1","kv_role":"{role}",'
            f'"kv_connector_extra_config":{extra}}}'
        )
    elif has_key(config, "v0") and go_value(get(config, "v0")) == "1":
        value = json.dumps(
            {"kv_connector": "LMCacheConnector", "kv_role": role}, separators=(",", ":")
        )
    else:
        value = json.dumps(
            {"kv_connector": "LMCacheConnectorV1", "kv_role": role}, separators=(",", ":")
        )
    b.flag(value, where)


def _stack_ray(yf: YamlFile, item: Any) -> tuple[list[Token], dict[str, Token]]:
    """ray-cluster.yaml L669-758: a bash array; no prefix-caching default."""
    b = ArgvBuilder(yf)
    _stack_head(b, item)
    where = key_node(item, "raySpec") or item
    b.flag("--distributed-executor-backend", where)
    b.flag("ray", where)
    _stack_tools(b, item)
    config = get(item, "vllmConfig")
    if truthy(config):
        if has_key(config, "enableChunkedPrefill"):
            on = truthy(get(config, "enableChunkedPrefill"))
            b.flag(
                "--enable-chunked-prefill" if on else "--no-enable-chunked-prefill",
                key_node(config, "enableChunkedPrefill"),
            )
        if truthy(get(config, "enablePrefixCaching")):
            b.flag("--enable-prefix-caching", key_node(config, "enablePrefixCaching"))
        for flag, key in (
            ("--max-model-len", "maxModelLen"),
            ("--dtype", "dtype"),
            ("--tensor-parallel-size", "tensorParallelSize"),
            ("--pipeline-parallel-size", "pipelineParallelSize"),
            ("--max-num-seqs", "maxNumSeqs"),
            ("--gpu-memory-utilization", "gpuMemoryUtilization"),
            ("--max-loras", "maxLoras"),
        ):
            b.option(flag, config, key)
        b.items(get(config, "extraArgs"))
    if truthy(get(item, "modelRevision")):
        b.flag("--revision", key_node(item, "modelRevision"))
        b.value(get(item, "modelRevision"))
    _stack_lmcache(b, item, config, ray=True)
    if truthy(get(item, "chatTemplate")):
        b.flag("--chat-template", key_node(item, "chatTemplate"))
        b.value(get(item, "chatTemplate"))
    return b.words, env_list(yf, get(item, "env"))


# -- vLLM's own chart ---------------------------------------------------------------------


def _vllm_chart(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    image = get(document, "image")
    command = get(image, "command")
    if not is_sequence(command) or get(document, "containers") is not None:
        return
    words = [Word(token(yf, item), item) for item in command.value if is_scalar(item)]
    image_token = _image(yf, get(image, "repository"), get(image, "tag"))
    env = env_list(yf, get(document, "env"))
    found = invocations(yf, words, env, image_token, "vLLM chart image.command", True)
    yield from found


# -- llm-d-modelservice ---------------------------------------------------------------------


def _llm_d_modelservice(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    artifacts = get(document, "modelArtifacts")
    if not is_mapping(artifacts):
        return
    for role in ("decode", "prefill"):
        section = get(document, role)
        containers = get(section, "containers")
        if not is_sequence(containers):
            continue
        if has_key(section, "create") and not truthy(get(section, "create")):
            continue
        for container in containers.value:
            mode = text_of(get(container, "modelCommand"))
            if mode not in ("vllmServe", "imageDefault"):
                continue  # `custom` (or none): the container's own command is read as a pod spec
            argv = _llm_d_args(yf, document, section, container, artifacts, mode)
            image_node = get(container, "image")
            image = text_token(yf, image_node)
            origin = f"llm-d-modelservice {role} ({mode})"
            anchor = container  # the chart renders the whole container entry
            yield yaml_invocation(
                yf, argv, origin, anchor, image, env_list(yf, get(container, "env"))
            )


def _llm_d_args(
    yf: YamlFile, document: Any, section: Any, container: Any, artifacts: Any, mode: str
) -> list[Token]:
    """_helpers.tpl: the model (from modelArtifacts.uri), --port, parallelism, the served
    name, then the container's own args."""
    b = ArgvBuilder(yf)
    uri = get(artifacts, "uri")
    where = key_node(artifacts, "uri") or key_node(document, "modelArtifacts")
    model = _model_from_uri(text_of(uri))
    if mode == "imageDefault":
        b.flag("--model", where)
    if model is None or uri is None:
        b.opaque(text_of(uri) or "<model>", uri if uri is not None else where)
    else:
        b.value(uri, model)
    b.flag("--port", key_node(container, "modelCommand"))
    b.opaque("<vllm port>", key_node(container, "modelCommand"))
    parallelism = get(section, "parallelism")
    for flag, key in (
        ("--tensor-parallel-size", "tensor"),
        ("--data-parallel-size", "data"),
        ("--data-parallel-size-local", "dataLocal"),
    ):
        value = get(parallelism, key)
        text = go_value(value) if value is not None else None
        if text and text.isdigit() and int(text) > 1:
            b.flag(flag, key_node(parallelism, key))
            b.value(value)
    name = get(artifacts, "name")
    if name is not None:
        b.flag("--served-model-name", key_node(artifacts, "name"))
        b.value(name)
    b.items(get(container, "args"))
    return b.words


def _model_from_uri(uri: str | None) -> str | None:
    """`hf://org/model` → org/model, `pvc+hf://claim/org/model` → org/model; a PVC path
    depends on the mount path (opaque)."""
    if not uri or "{{" in uri:
        return None
    if uri.startswith("hf://"):
        return uri[len("hf://") :].strip('"')
    if uri.startswith("pvc+hf://"):
        parts = uri[len("pvc+hf://") :].split("/")
        return "/".join(parts[-2:]) if len(parts) >= 3 else None
    return None


# -- OPEA ------------------------------------------------------------------------------------


def _opea(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    candidates = [(document, "")]
    for key, _k, value in items(document):
        if is_mapping(value) and has_key(value, "extraCmdArgs"):
            candidates.append((value, f"{key}."))  # an umbrella chart's subchart values
    for values, prefix in candidates:
        if not has_key(values, "extraCmdArgs"):
            continue
        yield from _opea_one(yf, values, prefix)


def _opea_one(yf: YamlFile, values: Any, prefix: str) -> Iterator[Invocation]:
    """helm-charts/common/vllm/templates/deployment.yaml: extraCmdArgs, then the model."""
    command = get(get(values, "extraCmd"), "command")
    anchor = key_node(values, "extraCmdArgs")
    if command is not None:  # the launch starts with the chart's command override
        anchor = key_node(values, "extraCmd")
    if is_sequence(command):
        words = [token(yf, item) for item in command.value if is_scalar(item)]
        launches = server_args(words) is not None or (
            len(words) >= 2 and _SERVER_SCRIPT.fullmatch(words[-1].text) is not None
        )
        if not launches:
            return
    b = ArgvBuilder(yf)
    b.items(get(values, "extraCmdArgs"))
    b.flag("--model", anchor)
    if get(values, "LLM_MODEL_ID") is not None:
        b.value(get(values, "LLM_MODEL_ID"))
    else:
        b.opaque("<LLM_MODEL_ID>", anchor)  # the chart's default
    b.flag("--host", anchor)
    b.flag("0.0.0.0", anchor)
    b.flag("--port", anchor)
    if get(values, "port") is not None:
        b.value(get(values, "port"))
    else:
        b.opaque("<port>", anchor)
    b.flag("--download-dir", anchor)
    b.flag("/data", anchor)
    image = get(values, "image")
    image_token = _image(yf, get(image, "repository"), get(image, "tag"))
    env = {}
    for name, _k, value in items(get(values, "env")):
        if is_scalar(value) and text_of(value) is not None:
            env[name] = token(yf, value)
    yield yaml_invocation(
        yf, b.words, f"OPEA vllm chart {prefix}extraCmdArgs", anchor, image_token, env
    )


# -- Red Hat vllm-kserve ----------------------------------------------------------------------


def _redhat_vllm_kserve(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    runtime = get(document, "servingRuntime")
    model = get(document, "model")
    command = get(runtime, "command")
    if not is_sequence(command) or not is_mapping(model):
        return
    words = [token(yf, item) for item in command.value if is_scalar(item)]
    found = server_args(words)
    if found is None:
        return
    b = ArgvBuilder(yf)
    b.items(get(runtime, "args"))
    override = get(model, "modelNameOverride")
    where = key_node(model, "modelNameOverride") or key_node(document, "model")
    if truthy(override):
        b.value(override, f"--served-model-name={go_value(override)}")
    else:  # the InferenceService's own name, filled in by KServe
        b.opaque("--served-model-name={{.Name}}", where)
    b.items(get(model, "args"))
    image = get(document, "image")
    image_token = _image(yf, get(image, "repository"), get(image, "tag"))
    env = {**env_list(yf, get(runtime, "env")), **env_list(yf, get(model, "env"))}
    anchor = key_node(runtime, "command")
    yield yaml_invocation(
        yf, b.words, "vllm-kserve chart servingRuntime + model.args", anchor, image_token, env
    )
