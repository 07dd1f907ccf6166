"""A synthetic Kubernetes monorepo: many ordinary manifests, a few that launch vLLM.

Deterministic for a given (files, vllm, seed). Every file holds exactly one YAML document,
because check-jsonschema (the peer it is timed against) refuses multi-document files.

Layout and mix, for `files` manifests of which `vllm` launch the server:
- `vllm` Deployments/StatefulSets under `ml/serving/<name>/` that run `vllm serve` in the
  forms real repos use (image entrypoint + args, `command: [vllm, serve]`, the api_server
  module, `sh -c "exec vllm serve …"`), across releases 0.8-0.34, some with `--use-replayssm`
  and speculative decoding, a few with the mistakes vllm-lint exists to catch;
- `vllm` companions beside them (Service, HPA, PodDisruptionBudget) that mention vLLM by
  name but launch nothing: they pass the byte prefilter and cost a parse;
- the rest are ordinary services under `services/<team>/<app>/`: Deployments, Services,
  ConfigMaps, Ingresses, CronJobs, StatefulSets, HPAs, ServiceAccounts, NetworkPolicies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

GENERATOR_VERSION = "1"

_TEAMS = ("payments", "search", "identity", "growth", "platform", "data", "mobile", "ads")
_APPS = (
    "orders",
    "billing",
    "checkout",
    "catalog",
    "profile",
    "session",
    "notifier",
    "gateway",
    "ledger",
    "ranker",
    "indexer",
    "thumbnailer",
)
_MODELS = (
    ("meta-llama/Llama-3.1-8B-Instruct", 1),
    ("meta-llama/Llama-3.3-70B-Instruct", 4),
    ("Qwen/Qwen2.5-7B-Instruct", 1),
    ("Qwen/Qwen3-32B", 2),
    ("mistralai/Mistral-7B-Instruct-v0.3", 1),
    ("google/gemma-2-9b-it", 1),
    ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", 1),
    ("ibm-granite/granite-4.0-h-small", 2),
)
_HYBRID = ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "ibm-granite/granite-4.0-h-small")
_RELEASES = (
    "v0.8.5",
    "v0.9.2",
    "v0.10.2",
    "v0.11.2",
    "v0.13.0",
    "v0.15.1",
    "v0.18.1",
    "v0.20.2",
    "v0.23.0",
    "v0.26.0",
    "v0.28.0",
    "v0.30.0",
    "v0.31.0",
    "v0.32.0",
    "v0.33.0",
    "v0.34.0",
    "latest",
)


@dataclass(frozen=True)
class Manifest:
    path: str  # relative to the repo root
    text: str
    launches_vllm: bool


def generate(files: int, vllm: int, seed: int = 7) -> Iterator[Manifest]:
    """`files` manifests in total, `vllm` of which launch the server and `vllm` more are
    their companions (Service, HPA, PDB); the rest are ordinary services."""
    if files < 2 * vllm:
        raise ValueError("files must be at least twice vllm (each server has a companion)")
    rng = random.Random(seed)
    for i in range(vllm):
        name = f"llm-{i:05d}"
        yield Manifest(f"ml/serving/{name}/deployment.yaml", _vllm_workload(rng, i, name), True)
        yield Manifest(f"ml/serving/{name}/{_companion_file(i)}", _companion(rng, i, name), False)
    for i in range(files - 2 * vllm):
        team = _TEAMS[i % len(_TEAMS)]
        app = f"{_APPS[(i // len(_TEAMS)) % len(_APPS)]}-{i // (len(_TEAMS) * len(_APPS)):03d}"
        kind, text = _ordinary(rng, i, team, app)
        yield Manifest(f"services/{team}/{app}/{kind}.yaml", text, False)


def write(root: Path, files: int, vllm: int, seed: int = 7) -> list[str]:
    """Write the repo under `root`; returns the relative paths, in generation order."""
    paths = []
    for manifest in generate(files, vllm, seed):
        target = root / manifest.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(manifest.text, encoding="utf-8")
        paths.append(manifest.path)
    return paths


# -- vLLM workloads ------------------------------------------------------------------------


def _yaml_list(items: list[str], indent: int) -> str:
    pad = " " * indent
    return "".join(f"{pad}- {_quote(item)}\n" for item in items)


def _quote(word: str) -> str:
    if word.startswith(("{", "[", "*", "&", "!", "%", "@", "`")) or ": " in word:
        return "'" + word.replace("'", "''") + "'"
    if word in ("true", "false", "yes", "no", "on", "off", "null") or word.isdigit():
        return f'"{word}"'
    return word


def _server_flags(rng: random.Random, i: int, model: str, tp: int, release: str) -> list[str]:
    minor = 99 if release == "latest" else int(release.split(".")[1])
    flags = [
        "--served-model-name",
        model.split("/")[-1].lower(),
        "--port",
        "8000",
        "--tensor-parallel-size",
        str(tp),
        "--max-model-len",
        str(rng.choice((4096, 8192, 16384, 32768))),
        "--gpu-memory-utilization",
        rng.choice(("0.85", "0.9", "0.92", "0.95")),
    ]
    if rng.random() < 0.5:
        flags += ["--max-num-seqs", str(rng.choice((64, 128, 256)))]
    if rng.random() < 0.3:
        flags += ["--enable-prefix-caching"]
    if rng.random() < 0.2:
        flags += ["--kv-cache-dtype", "fp8"]
    if minor < 17 and rng.random() < 0.5:
        flags += ["--disable-log-requests"]
    if "Qwen3" in model:
        flags += ["--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
    if model in _HYBRID and minor >= 27:
        flags += ["--use-replayssm"]
        if i % 3 == 0:  # speculative decoding too; only some setups are accepted
            k = rng.choice((2, 3, 5))
            flags += ["--speculative-config", f'{{"method":"ngram","num_speculative_tokens":{k}}}']
            if minor >= 32 and i % 2 == 0:
                flags += [
                    "--mamba-backend",
                    "flashinfer",
                    "--no-enable-prefix-caching",
                    "--replayssm-buffer-len",
                    str(rng.choice((4, 16))),
                ]
    if i % 23 == 5:
        flags += ["--max-num-batched-tokens", "two-thousand"]  # a typo'd value
    if i % 29 == 7:
        flags += ["--enable-chunked-prefil"]  # a misspelt flag
    return flags


def _vllm_workload(rng: random.Random, i: int, name: str) -> str:
    model, tp = _MODELS[i % len(_MODELS)]
    release = _RELEASES[(i * 7) % len(_RELEASES)]
    flags = _server_flags(rng, i, model, tp, release)
    form = i % 4
    if form == 0:  # the image's entrypoint is the server: arguments only
        launch = "          args:\n" + _yaml_list([model, *flags], 12)
    elif form == 1:
        launch = '          command: ["vllm", "serve"]\n          args:\n' + _yaml_list(
            [model, *flags], 12
        )
    elif form == 2:
        launch = (
            '          command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
            "          args:\n" + _yaml_list(["--model", model, *flags], 12)
        )
    else:
        body = " \\\n                ".join(_shell_word(w) for w in flags)
        launch = (
            '          command: ["/bin/sh", "-c"]\n'
            "          args:\n"
            "            - |\n"
            "              set -e\n"
            '              echo "starting $(hostname)"\n'
            f"              exec vllm serve {model} \\\n"
            f"                {body}\n"
        )
    kind = "StatefulSet" if i % 10 == 9 else "Deployment"
    service_name = f"\n  serviceName: {name}" if kind == "StatefulSet" else ""
    return f"""# {model} served by vLLM ({release}), owned by the ML platform team.
apiVersion: apps/v1
kind: {kind}
metadata:
  name: {name}
  namespace: inference
  labels:
    app.kubernetes.io/name: {name}
    app.kubernetes.io/component: vllm-server
    team: ml-platform
spec:{service_name}
  replicas: {rng.choice((1, 1, 2, 3))}
  selector:
    matchLabels:
      app.kubernetes.io/name: {name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {name}
        app.kubernetes.io/component: vllm-server
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "8000"
    spec:
      serviceAccountName: inference
      nodeSelector:
        nvidia.com/gpu.product: {rng.choice(("NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB"))}
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: vllm
          image: vllm/vllm-openai:{release}
          imagePullPolicy: IfNotPresent
{launch}          env:
            - name: HF_TOKEN
              valueFrom:
                secretKeyRef:
                  name: hf-token
                  key: token
            - name: HF_HOME
              value: /models/cache
            - name: VLLM_LOGGING_LEVEL
              value: INFO
          ports:
            - name: http
              containerPort: 8000
          readinessProbe:
            httpGet:
              path: /health
              port: http
            initialDelaySeconds: 60
            periodSeconds: 10
          resources:
            limits:
              nvidia.com/gpu: {tp}
              memory: {32 * tp}Gi
            requests:
              cpu: "{4 * tp}"
              memory: {24 * tp}Gi
          volumeMounts:
            - name: models
              mountPath: /models
            - name: shm
              mountPath: /dev/shm
      volumes:
        - name: models
          persistentVolumeClaim:
            claimName: model-cache
        - name: shm
          emptyDir:
            medium: Memory
            sizeLimit: 16Gi
"""


def _shell_word(word: str) -> str:
    if any(c in word for c in " {}\"'$"):
        return "'" + word.replace("'", "'\\''") + "'"
    return word


def _companion_file(i: int) -> str:
    return ("service.yaml", "hpa.yaml", "pdb.yaml")[i % 3]


def _companion(rng: random.Random, i: int, name: str) -> str:
    which = i % 3
    if which == 0:
        return f"""apiVersion: v1
kind: Service
metadata:
  name: {name}
  namespace: inference
  labels:
    app.kubernetes.io/component: vllm-server
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: {name}
  ports:
    - name: http
      port: 80
      targetPort: 8000
"""
    if which == 1:
        return f"""# Scale the vLLM server on queue depth.
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {name}
  namespace: inference
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {name}
  minReplicas: 1
  maxReplicas: {rng.choice((2, 4, 8))}
  metrics:
    - type: Pods
      pods:
        metric:
          name: vllm:num_requests_waiting
        target:
          type: AverageValue
          averageValue: "{rng.choice((5, 10, 20))}"
"""
    return f"""apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {name}
  namespace: inference
  labels:
    app.kubernetes.io/component: vllm-server
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: {name}
"""


# -- ordinary services ---------------------------------------------------------------------

_ORDINARY = (
    "deployment",
    "service",
    "configmap",
    "deployment",
    "ingress",
    "cronjob",
    "hpa",
    "serviceaccount",
    "statefulset",
    "networkpolicy",
)


def _ordinary(rng: random.Random, i: int, team: str, app: str) -> tuple[str, str]:
    kind = _ORDINARY[i % len(_ORDINARY)]
    render = {
        "deployment": _deployment,
        "service": _service,
        "configmap": _configmap,
        "ingress": _ingress,
        "cronjob": _cronjob,
        "hpa": _hpa,
        "serviceaccount": _serviceaccount,
        "statefulset": _statefulset,
        "networkpolicy": _networkpolicy,
    }[kind]
    return f"{kind}-{i:05d}", render(rng, i, team, app)


def _meta(name: str, team: str, kind: str, api: str) -> str:
    return f"""apiVersion: {api}
kind: {kind}
metadata:
  name: {name}
  namespace: {team}
  labels:
    app.kubernetes.io/name: {name}
    app.kubernetes.io/part-of: {team}
    app.kubernetes.io/managed-by: kustomize
"""


def _deployment(rng: random.Random, i: int, team: str, app: str) -> str:
    version = f"{rng.randint(1, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"
    return (
        _meta(app, team, "Deployment", "apps/v1")
        + f"""spec:
  replicas: {rng.choice((2, 3, 4, 6))}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: {app}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {app}
        app.kubernetes.io/part-of: {team}
    spec:
      serviceAccountName: {app}
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
      containers:
        - name: {app}
          image: registry.example.com/{team}/{app}:{version}
          args: ["--config", "/etc/{app}/config.toml", "--log-format", "json"]
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {app}-db
                  key: url
            - name: OTEL_EXPORTER_OTLP_ENDPOINT
              value: http://otel-collector.observability:4317
            - name: GOMAXPROCS
              valueFrom:
                resourceFieldRef:
                  resource: limits.cpu
          ports:
            - name: http
              containerPort: 8080
            - name: metrics
              containerPort: 9090
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
          readinessProbe:
            httpGet:
              path: /ready
              port: http
            periodSeconds: 5
          resources:
            requests:
              cpu: {rng.choice(("100m", "250m", "500m"))}
              memory: {rng.choice(("128Mi", "256Mi", "512Mi"))}
            limits:
              memory: {rng.choice(("256Mi", "512Mi", "1Gi"))}
          volumeMounts:
            - name: config
              mountPath: /etc/{app}
      volumes:
        - name: config
          configMap:
            name: {app}-config
"""
    )


def _service(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(app, team, "Service", "v1")
        + f"""spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: {app}
  ports:
    - name: http
      port: 80
      targetPort: http
    - name: metrics
      port: 9090
      targetPort: metrics
"""
    )


def _configmap(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(f"{app}-config", team, "ConfigMap", "v1")
        + f"""data:
  config.toml: |
    [server]
    listen = "0.0.0.0:8080"
    read_timeout = "{rng.choice((5, 10, 30))}s"
    write_timeout = "{rng.choice((5, 10, 30))}s"

    [database]
    max_open_conns = {rng.choice((10, 20, 50))}
    max_idle_conns = 5

    [features]
    new_checkout_flow = {rng.choice(("true", "false"))}
    rate_limit_per_minute = {rng.choice((60, 600, 6000))}
  LOG_LEVEL: info
  FEATURE_FLAGS: "beta-search,fast-path"
"""
    )


def _ingress(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(app, team, "Ingress", "networking.k8s.io/v1")
        + f"""  annotations:
    cert-manager.io/cluster-issuer: letsencrypt
    nginx.ingress.kubernetes.io/proxy-body-size: 8m
spec:
  ingressClassName: nginx
  tls:
    - hosts: [{app}.{team}.example.com]
      secretName: {app}-tls
  rules:
    - host: {app}.{team}.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {app}
                port:
                  name: http
"""
    )


def _cronjob(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(f"{app}-cleanup", team, "CronJob", "batch/v1")
        + f"""spec:
  schedule: "{rng.randint(0, 59)} {rng.randint(0, 23)} * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: cleanup
              image: registry.example.com/{team}/{app}-jobs:{rng.randint(1, 9)}.{rng.randint(0, 9)}
              command: ["/bin/sh", "-c"]
              args:
                - |
                  set -eu
                  python -m jobs.cleanup --older-than {rng.choice((7, 30, 90))}d --batch 500
                  echo done
"""
    )


def _hpa(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(app, team, "HorizontalPodAutoscaler", "autoscaling/v2")
        + f"""spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {app}
  minReplicas: 2
  maxReplicas: {rng.choice((6, 10, 20))}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {rng.choice((60, 70, 80))}
"""
    )


def _serviceaccount(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(app, team, "ServiceAccount", "v1")
        + """automountServiceAccountToken: false
"""
    )


def _statefulset(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(f"{app}-redis", team, "StatefulSet", "apps/v1")
        + f"""spec:
  serviceName: {app}-redis
  replicas: 3
  selector:
    matchLabels:
      app.kubernetes.io/name: {app}-redis
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {app}-redis
    spec:
      containers:
        - name: redis
          image: redis:7.{rng.randint(0, 4)}-alpine
          command: ["redis-server", "--appendonly", "yes", "--maxmemory", "512mb"]
          ports:
            - containerPort: 6379
          volumeMounts:
            - name: data
              mountPath: /data
  volumeClaimTemplates:
    - metadata:
        name: data
      spec:
        accessModes: ["ReadWriteOnce"]
        resources:
          requests:
            storage: {rng.choice((1, 5, 10))}Gi
"""
    )


def _networkpolicy(rng: random.Random, i: int, team: str, app: str) -> str:
    return (
        _meta(app, team, "NetworkPolicy", "networking.k8s.io/v1")
        + f"""spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: {app}
  policyTypes: [Ingress]
  ingress:
    - from:
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: ingress-nginx
      ports:
        - port: 8080
"""
    )
