#!/usr/bin/env python3
"""Every place a vLLM release refuses a configuration at startup, and which check covers it.

    python -m tools.mine_raises                    # all releases: tools/coverage/, docs/coverage.md
    python -m tools.mine_raises --releases 0.34.0  # some (the page is rebuilt from all the files)
    python -m tools.mine_raises --check            # exit 1 if a file or the page is stale

Read from each release's wheel (ast only; ``extract_flags.ensure_source``), in these files:

* ``vllm/config.py`` / ``vllm/config/*.py``, ``vllm/engine/arg_utils.py``,
  ``vllm/entrypoints/cli/serve.py``;
* the OpenAI server's argument validation: ``entrypoints/{openai,common,launchers}/cli_args.py``,
  the data-parallel supervisor (``entrypoints/{openai,launchers}/dp_supervisor.py``), and the
  startup functions (``validate*``, ``run_server*``, ``setup_server``, ``build_app``,
  ``init_app_state``, ``build_async_engine_client*``) of ``entrypoints/openai/api_server.py``
  (to 0.28) and ``entrypoints/launchers/{app,launcher}.py``, ``launchers/api_server/*.py``;
* ``vllm/v1/engine/*.py`` (sites outside the engine's startup functions get the reason
  ``runtime``).

A *site* is a ``raise`` (its exception type and message, f-string parts as ``{…}``), an
``assert`` used as validation (a message, or a test that is not a bare ``x is not None`` /
``isinstance`` narrowing), or ``parser.error(...)``. ``logger.warning``/``warning_once``/
``warnings.warn`` calls that say a setting is ignored, overridden or disabled are listed
apart (``warnings``).

Coverage of each site, first that applies:

* ``rule``: a vllm-lint rule (schemas/rules/<area>/*.json) holding for the release cites the site
  (``source`` maps the release to ``file:line``: the line of the raise, or of the ``if`` that
  guards it), or its ``vllm_error`` text (the wording for that release) matches the message
  (at least 75 % of the rule's text, placeholders aside, found in the message);
* ``mined``: a generic check on schemas/validation/<release>.json decides it: the site is
  the error branch of a before-validator that looks an enum up by name (the field is marked
  ``match: name_upper``) or an enum's metaclass ``__getitem__`` (``_XEnumMeta``, the enum
  ``X`` of the same file in ``enums``), or its guard compares one field with the very bound pydantic
  checks (``if self.x <= 0`` with ``gt: 0``);
* ``reason``: what the verdict hangs on, when nothing a deployment file says decides it.
  First an entry of ``tools/coverage_reasons.json`` (a site read by hand: ``file``,
  ``function`` and the start of its ``message``, so it holds as lines move; optional ``kind``
  and ``since``; the ``reason`` and ``why``, one line; the first entry that matches wins);
  then what the code says: in ``vllm/v1/engine``, a function not run at startup
  (``runtime``), one whose name or parameters name a request (``request``), a function the
  module registers with ``signal.signal`` (``process``); then regular expressions
  (``REASONS``) over the code: the tests guarding the site, an assert's own test, what the
  local names they use were assigned in the function, and the function's name (a message
  says it only for a missing package or a failure at run time, since a message may well name
  "CUDA graphs" about a flag). The reasons (``REASON_KINDS``):

  - ``model``: the model's HF config, architecture, heads, weights, registry entry;
  - ``hardware``: ``current_platform``, device capability or count, free GPU memory;
  - ``network``: sockets, ZMQ, Ray's cluster, remote storage;
  - ``package``: an optional package installed or not (``pip install``, ``find_spec``);
  - ``runtime``: runs after startup (engine steps, health probes, RPCs), or a message about
    a process that failed, died or timed out;
  - ``request``: checks one request (its sampling or pooling parameters, prompt, LoRA, the
    queue it joins): runs when the request arrives;
  - ``process``: a signal, or a message another process of the launch sends (handshakes);
  - ``internal``: an invariant on a value vLLM's own code set just before, or one an earlier
    validator already refused (the entry's ``why`` cites the line);
  - ``parser``: vLLM building its argument parser from its own dataclasses' type hints,
    before any flag is read;
* ``lifted``: otherwise uncovered, and a shipped entry of schemas/lifted.json (VL600,
  ``tools/lift_raises.py``; only entries vLLM's own verdicts confirmed) judges its guard in
  that release;
* ``uncovered``: none of these.

``--relabel`` recomputes only the ``lifted`` cover from schemas/lifted.json in the files
already written (no wheel needed: run it after ``tools/lift_raises.py``).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from tools import extract_flags as ef
    from tools.mine_validation import release_list
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools import extract_flags as ef
    from tools.mine_validation import release_list
from vllm_lint import release_data

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tools" / "coverage"
DOC = REPO / "docs" / "coverage.md"
LIFTED = REPO / "schemas" / "lifted.json"
RULES = REPO / "schemas" / "rules"
VALIDATION = REPO / "schemas" / "validation"
FORMAT_VERSION = 1
DOC_RELEASES = ("0.28.0", "0.30.0", "0.31.0", "0.33.0", "0.34.0")

STARTUP_API = re.compile(
    r"^(_?validate|run_server|setup_server|build_app|init_app_state|build_async_engine_client"
    r"|create_server|serve_http|_interrupt_init)"
)
STARTUP_ENGINE = re.compile(
    r"^(__init__|__post_init__|from_vllm_config|from_engine_args|make_\w*client|"
    r"launch_core_engines|run_engine_core|wait_for_engine_startup|_?init\w*|_?initialize\w*|"
    r"_?validate\w*|_?verify\w*|_?check\w*|startup\w*|_perform_handshake\w*|"
    r"_?startup_handshake\w*|_?get_executor_cls|get_class)$"
)
IGNORED_WARNING = re.compile(
    r"ignor|no effect|not be used|is not used|unused|overrid|overwrit|disabl|fall(ing)? ?back"
    r"|will be set to|is set to|forcing|forced",
    re.I,
)
# (reason, pattern over the code: the guarding tests and the function's name, pattern over
# the message or None). The code decides: a message may say "CUDA graphs" or "S3" about a flag.
REASONS: tuple[tuple[str, re.Pattern[str], re.Pattern[str] | None], ...] = (
    (
        "package",
        re.compile(r"find_spec|importlib|ImportError|ModuleNotFoundError|is_installed", re.I),
        re.compile(r"pip install|not installed|please install|requires the \S+ package", re.I),
    ),
    (
        "model",
        re.compile(
            r"hf_config|hf_text_config|hf_image_processor|architectures?\b|model_type"
            r"|is_multimodal_model|is_hybrid|is_attention_free|use_mla|is_deepseek_mla"
            r"|\bis_moe\b|is_encoder_decoder|get_num_\w*heads|total_num_\w*heads"
            r"|get_num_layers|get_total_num|num_experts|max_position_embeddings"
            r"|derived_max_model_len|get_and_verify_max_len|model_arch|registry"
            r"|supports_\w+|model_cls|draft_model_config\.hf|vocab_size|hidden_size",
        ),
        None,
    ),
    (
        "hardware",
        re.compile(
            r"current_platform|torch\.cuda|device_capability|cuda_device_count|device_count"
            r"|is_cuda\(|is_rocm\(|is_tpu\(|is_xpu\(|is_cpu\(|is_cuda_alike|nvlink"
            r"|get_device_name|_verify_\w*platform|gpu_memory_available|mem_get_info"
        ),
        None,
    ),
    (
        "network",
        re.compile(r"\bsocket\b|zmq|get_ip\(|ray\.|requests\.|urlopen|is_port_available"),
        re.compile(r"address already in use|could not connect|unable to connect", re.I),
    ),
    (
        "runtime",
        re.compile(r"^$"),
        re.compile(
            r"\b(failed|died|timed out|crashed)\b|engine core (process|initialization)", re.I
        ),
    ),
)


# Per request (``request``): a function of vllm/v1/engine whose name or parameters name what a
# client sends.
REQUEST_FUNCTION = re.compile(r"request|prompt|admission|process_inputs", re.I)
REQUEST_PARAM = re.compile(
    r"^(params|sampling_params|pooling_params|prompt\w*|request|request_id|\w+_request)$"
)
# The documented set of reasons (``reason`` of a site, ``reason`` of a REASONS_DATA entry).
REASON_KINDS = {
    "model": "the model's HF config, architecture, weights or registry entry",
    "hardware": "the platform, the GPU's capability or count, free GPU memory",
    "network": "sockets, ZMQ, Ray's cluster, remote storage",
    "package": "an optional package installed or not",
    "runtime": "it runs only after startup (engine steps, health probes, RPCs) or reports "
    "a process that failed",
    "request": "it checks one request (sampling or pooling parameters, prompt, LoRA, the "
    "queue), when the request arrives",
    "process": "a signal, or a message another process of the launch sends (handshakes)",
    "internal": "an invariant on a value vLLM's own code set just before, or one an "
    "earlier check already refused",
    "parser": "vLLM building its argument parser from its dataclasses' type hints, before "
    "any flag is read",
}
REASONS_DATA = REPO / "tools" / "coverage_reasons.json"


def signal_handlers(text: str) -> set[str]:
    """Names of the functions a module registers with ``signal.signal(sig, handler)``."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    return {
        node.args[1].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ef.dotted(node.func) == "signal.signal"
        and len(node.args) == 2
        and isinstance(node.args[1], ast.Name)
    }


@dataclass(frozen=True)
class ReasonEntry:
    """One site a pattern cannot decide, read by hand: ``file``, ``function`` (as the
    records spell it) and the start of its ``message`` (so it holds across releases as
    lines move), the ``reason`` and ``why`` no deployment file can decide it."""

    file: str
    function: str
    message: str
    reason: str
    why: str
    kind: str = ""  # raise | assert | parser.error, when the message alone is ambiguous
    since: str = ""  # the first release the why holds for, when an older one differs

    def matches(self, site: Site, release: str) -> bool:
        return (
            site.file == self.file
            and site.function == self.function
            and site.message.startswith(self.message)
            and (not self.kind or site.kind == self.kind)
            and (not self.since or vkey(release) >= vkey(self.since))
        )


def load_reasons(path: Path = REASONS_DATA) -> list[ReasonEntry]:
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        ReasonEntry(
            e["file"],
            e["function"],
            e["message"],
            e["reason"],
            e["why"],
            e.get("kind", ""),
            e.get("since", ""),
        )
        for e in data["entries"]
    ]


# --------------------------------------------------------------------------
# Files and sites
# --------------------------------------------------------------------------


def files_in_scope(root: Path) -> list[tuple[str, str]]:
    """(relative path, scope) of the files read: ``all`` sites, ``api`` (startup functions
    only) or ``engine`` (every site, ``runtime`` outside the startup functions)."""
    out: list[tuple[str, str]] = []
    vllm = root / "vllm"

    def add(rel: str, scope: str) -> None:
        if (root / rel).is_file() and (rel, scope) not in out:
            out.append((rel, scope))

    add("vllm/config.py", "all")
    for p in sorted((vllm / "config").rglob("*.py")):
        add(p.relative_to(root).as_posix(), "all")
    add("vllm/engine/arg_utils.py", "all")
    add("vllm/entrypoints/cli/serve.py", "all")
    for d in ("openai", "common", "launchers"):
        add(f"vllm/entrypoints/{d}/cli_args.py", "all")
    for d in ("openai", "launchers"):
        add(f"vllm/entrypoints/{d}/dp_supervisor.py", "all")
    add("vllm/entrypoints/openai/api_server.py", "api")
    add("vllm/entrypoints/launchers/app.py", "api")
    add("vllm/entrypoints/launchers/launcher.py", "api")
    for p in sorted((vllm / "entrypoints" / "launchers" / "api_server").glob("*.py")):
        add(p.relative_to(root).as_posix(), "api")
    for p in sorted((vllm / "v1" / "engine").glob("*.py")):
        add(p.relative_to(root).as_posix(), "engine")
    return out


@dataclass
class Site:
    file: str
    line: int
    end_line: int
    function: str
    kind: str  # raise | assert | parser.error | warning
    exception: str
    message: str
    guard: str = ""  # the enclosing if tests, innermost last, source text
    # what the reasons read: the guard, an assert's own test, and what the local names they
    # use were assigned in the function (``uses_rocm = current_platform.is_rocm() and ...``)
    code: str = ""
    guard_lines: list[tuple[int, int]] = field(default_factory=list)
    guard_nodes: list[tuple[ast.expr, bool]] = field(default_factory=list)  # (test, in body)
    validator: tuple[str, list[str], str] | None = None  # (class, fields, mode)
    runtime: bool = False
    request: bool = False  # in vllm/v1/engine, a function that checks one request
    process: bool = False  # a signal handler
    cover: str = ""
    rules: list[str] = field(default_factory=list)
    reason: str = ""

    def cites(self, line: int) -> bool:
        """A citation of this line names the site: the raise, or the test of its ``if``."""
        if self.line <= line <= self.end_line:
            return True
        return bool(self.guard_lines) and self.guard_lines[-1][0] <= line <= self.guard_lines[-1][1]

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": self.file,
            "line": self.line,
            "function": self.function,
            "kind": self.kind,
            "message": self.message,
            "cover": self.cover,
        }
        if self.exception:
            out["exception"] = self.exception
        if self.rules:
            out["rules"] = self.rules
        if self.reason:
            out["reason"] = self.reason
        return out


PCT = re.compile(r"%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdrfixXeEgGc]")
FMT = re.compile(r"\{[^{}]*\}")


def text_of(node: ast.expr | None, assigns: dict[str, ast.expr], depth: int = 0) -> str:
    """A message's text, f-string and format parts as ``{…}``."""
    if node is None or depth > 8:
        return ""
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str) else "{…}"
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return text_of(node.left, assigns, depth + 1) + text_of(node.right, assigns, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return PCT.sub("{…}", text_of(node.left, assigns, depth + 1))
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        return FMT.sub("{…}", text_of(node.func.value, assigns, depth + 1))
    if isinstance(node, ast.Call) and ef.dotted(node.func) in ("str", "textwrap.dedent"):
        return text_of(node.args[0], assigns, depth + 1) if node.args else ""
    if isinstance(node, ast.Name) and node.id in assigns:
        return text_of(assigns[node.id], assigns, depth + 1)
    return "{…}"


@dataclass
class Helper:
    """A function that only raises (``_raise_unsupported_error(feature_name)``): each call
    is a site, the message with the arguments put in."""

    exception: str
    parts: list[str | tuple[str]]  # literal text, or (parameter,)


def _template(node: ast.expr | None, assigns: dict[str, ast.expr], params: list[str]) -> list[Any]:
    if isinstance(node, ast.Name) and node.id in assigns:
        return _template(assigns[node.id], assigns, params)
    if isinstance(node, ast.JoinedStr):
        parts: list[Any] = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif (
                isinstance(v, ast.FormattedValue)
                and isinstance(v.value, ast.Name)
                and v.value.id in params
            ):
                parts.append((v.value.id,))
            else:
                parts.append("{…}")
        return parts
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left, assigns, params) + _template(node.right, assigns, params)
    return [text_of(node, assigns)]


def raising_helpers(tree: ast.Module) -> dict[str, Helper]:
    """Module-level functions whose body is assignments then one ``raise X(msg)``."""
    out: dict[str, Helper] = {}
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        body = [
            st
            for st in fn.body
            if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))
        ]
        if not body or not isinstance(body[-1], ast.Raise):
            continue
        if not all(isinstance(st, ast.Assign) for st in body[:-1]):
            continue
        exc = body[-1].exc
        if not isinstance(exc, ast.Call):
            continue
        assigns = {
            t.id: st.value
            for st in body[:-1]
            if isinstance(st, ast.Assign)
            for t in st.targets
            if isinstance(t, ast.Name)
        }
        params = [a.arg for a in fn.args.args]
        parts = _template(exc.args[0], assigns, params) if exc.args else []
        out[fn.name] = Helper(ef.dotted(exc.func).split(".")[-1], parts)
    return out


class Collector(ast.NodeVisitor):
    def __init__(self, rel: str, scope: str, text: str, helpers: dict[str, Helper]):
        self.rel = rel
        self.scope = scope
        self.helpers = helpers
        self.sites: list[Site] = []
        self.warnings: list[Site] = []
        self.names: list[str] = []
        self.classes: list[str] = []
        self.guards: list[tuple[ast.expr, bool]] = []
        self.assigns: list[dict[str, ast.expr]] = [{}]
        self.validators: list[tuple[str, list[str], str] | None] = []
        self.text = text
        self.params: dict[str, list[str]] = {}
        self.args: list[list[str]] = []  # parameter names of the enclosing functions
        self.handlers = signal_handlers(text)

    # -- context ------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.append(node.name)
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()
        self.names.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        validator = None
        for d in node.decorator_list:
            if isinstance(d, ast.Call) and ef.dotted(d.func).split(".")[-1] == "field_validator":
                mode = "after"
                for kw in d.keywords:
                    if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
                        mode = str(kw.value.value)
                fields = [str(a.value) for a in d.args if isinstance(a, ast.Constant)]
                validator = (self.classes[-1] if self.classes else "", fields, mode)
        self.names.append(node.name)
        saved = self.guards
        self.guards = []
        self.assigns.append({})
        self.validators.append(validator)
        a = node.args
        self.args.append([x.arg for x in a.posonlyargs + a.args + a.kwonlyargs])
        for st in node.body:
            self.visit(st)
        self.args.pop()
        self.validators.pop()
        self.assigns.pop()
        self.guards = saved
        self.names.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        self.guards.append((node.test, True))
        for st in node.body:
            self.visit(st)
        self.guards.pop()
        self.guards.append((node.test, False))
        for st in node.orelse:
            self.visit(st)
        self.guards.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            if isinstance(t, ast.Name):
                self.assigns[-1][t.id] = node.value
        self.generic_visit(node)

    # -- sites ------------------------------------------------------------
    def _function_name(self) -> str:
        return ".".join(self.names) or "<module>"

    def _request(self) -> bool:
        """In ``vllm/v1/engine``, the function (or the one it is nested in) checks a request:
        its name or one of its parameters names a request, a prompt or its sampling or
        pooling parameters (``_validate_params(params)``, ``_validate_lora(lora_request)``,
        ``check_admission(n, request_id)``): it runs when a request arrives, after startup."""
        if self.scope != "engine":
            return False
        funcs = [n for n in self.names if n not in self.classes]
        return any(REQUEST_FUNCTION.search(f) for f in funcs) or any(
            REQUEST_PARAM.match(a) for args in self.args for a in args
        )

    def _in_scope(self) -> tuple[bool, bool]:
        """(keep the site, runtime-only) for the current function."""
        funcs = [n for n in self.names if n not in self.classes]
        func = funcs[-1] if funcs else ""
        top = funcs[0] if funcs else ""
        if self.scope == "api":
            return bool(STARTUP_API.match(top)), False
        if self.scope == "engine":
            return True, not bool(STARTUP_ENGINE.match(func) or STARTUP_ENGINE.match(top))
        return True, False

    def _code(self, tests: list[ast.expr]) -> str:
        """The tests' source, then what the local names they use were assigned (three
        levels deep: ``capability = t.to_int()``, ``t = current_platform.get_...()``)."""
        assigns = self._assigns()
        out = [ast.unparse(t) for t in tests]
        seen: set[str] = set()
        todo = list(tests)
        for _ in range(3):
            names = {
                n.id
                for t in todo
                for n in ast.walk(t)
                if isinstance(n, ast.Name) and n.id in assigns and n.id not in seen
            }
            seen |= names
            todo = [assigns[n] for n in sorted(names)]
            out += [f"{n} = {ast.unparse(assigns[n])}" for n in sorted(names)]
        return "\n".join(out)

    def _site(
        self,
        node: ast.stmt | ast.expr,
        kind: str,
        exc: str,
        message: str,
        test: ast.expr | None = None,
    ) -> None:
        keep, runtime = self._in_scope()
        if not keep:
            return
        guard_lines = []
        guard_text = []
        for guard_test, in_body in self.guards:
            end = guard_test.end_lineno or guard_test.lineno
            guard_lines.append((guard_test.lineno, end))
            src = ast.unparse(guard_test)
            guard_text.append(src if in_body else f"not ({src})")
        tests = [t for t, _ in self.guards] + ([test] if test is not None else [])
        site = Site(
            file=self.rel,
            line=node.lineno,
            end_line=node.end_lineno or node.lineno,
            function=self._function_name(),
            kind=kind,
            exception=exc,
            message=message,
            guard=" and ".join(guard_text),
            code=self._code(tests),
            guard_lines=guard_lines,
            guard_nodes=list(self.guards),
            validator=self.validators[-1] if self.validators else None,
            runtime=runtime,
            request=self._request(),
            process=any(n in self.handlers for n in self.names if n not in self.classes),
        )
        (self.warnings if kind == "warning" else self.sites).append(site)

    def _helper_params(self, name: str) -> list[str]:
        return self.params.get(name, [])

    def _assigns(self) -> dict[str, ast.expr]:
        merged: dict[str, ast.expr] = {}
        for a in self.assigns:
            merged.update(a)
        return merged

    def visit_Raise(self, node: ast.Raise) -> None:
        funcs = [n for n in self.names if n not in self.classes]
        if len(funcs) == 1 and funcs[0] in self.helpers and not self.classes:
            return  # the helper's own raise: its calls are the sites
        exc = node.exc
        if exc is None:
            return  # a bare re-raise
        if isinstance(exc, ast.Name) and not exc.id[:1].isupper():
            return  # raise err: re-raising a caught exception
        func = exc.func if isinstance(exc, ast.Call) else exc
        name = ef.dotted(func).split(".")[-1]
        message = ""
        if isinstance(exc, ast.Call) and exc.args:
            message = text_of(exc.args[0], self._assigns())
        self._site(node, "raise", name, message)

    def visit_Assert(self, node: ast.Assert) -> None:
        test = node.test
        narrowing = (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ) or (isinstance(test, ast.Call) and ef.dotted(test.func) == "isinstance")
        if node.msg is None and narrowing:
            return
        message = text_of(node.msg, self._assigns()) if node.msg is not None else ""
        if not message:
            message = f"assert {ast.unparse(test)}"
        self._site(node, "assert", "AssertionError", message, test)

    def visit_Call(self, node: ast.Call) -> None:
        fn = ef.dotted(node.func)
        short = fn.split(".")[-1]
        helper = self.helpers.get(fn) if isinstance(node.func, ast.Name) else None
        if helper is not None:
            params = self._helper_params(fn)
            args = dict(zip(params, node.args, strict=False))
            args.update({k.arg: k.value for k in node.keywords if k.arg})
            text = "".join(
                p if isinstance(p, str) else text_of(args.get(p[0]), self._assigns())
                for p in helper.parts
            )
            self._site(node, "raise", helper.exception, text)
        elif short == "error" and fn.endswith("parser.error") and node.args:
            self._site(node, "parser.error", "SystemExit", text_of(node.args[0], self._assigns()))
        elif (
            short in ("warning", "warning_once", "warn")
            and (fn.startswith("logger.") or fn == "warnings.warn")
            and node.args
        ):
            message = PCT.sub("{…}", text_of(node.args[0], self._assigns()))
            if IGNORED_WARNING.search(message):
                self._site(node, "warning", "", message)
        self.generic_visit(node)


def collect(root: Path) -> tuple[list[Site], list[Site], list[str]]:
    sites: list[Site] = []
    warnings: list[Site] = []
    files = []
    for rel, scope in files_in_scope(root):
        text = (root / rel).read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        files.append(rel)
        c = Collector(rel, scope, text, raising_helpers(tree))
        c.params = {
            fn.name: [a.arg for a in fn.args.args]
            for fn in tree.body
            if isinstance(fn, ast.FunctionDef)
        }
        c.visit(tree)
        sites += c.sites
        warnings += c.warnings
    return sites, warnings, files


# --------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------


def vkey(v: str) -> tuple[int, ...]:
    nums = [int(x) for x in re.findall(r"\d+", v.split(".post")[0])]
    return tuple(nums[:3])


@dataclass
class RuleRef:
    id: str
    since: str
    before: str
    error: str | dict[str, str] | None
    source: dict[str, str]

    def applies(self, release: str) -> bool:
        r = vkey(release)
        if self.since and r < vkey(self.since):
            return False
        return not (self.before and r >= vkey(self.before))

    def error_for(self, release: str) -> str:
        if isinstance(self.error, str):
            return self.error
        if isinstance(self.error, dict):
            best = ""
            for k in sorted(self.error, key=vkey):
                if vkey(k) <= vkey(release):
                    best = self.error[k]
            return best
        return ""

    def cited(self, release: str) -> list[tuple[str, int]]:
        out = []
        for key in {release, release.split(".post")[0]}:
            v = self.source.get(key)
            if v and ":" in v:
                path, _, line = v.rpartition(":")
                if line.isdigit():
                    out.append((path, int(line)))
        return out


def load_rules(rules_dir: Path = RULES) -> list[RuleRef]:
    out = []
    for path in sorted(rules_dir.glob("*/*.json")):
        for r in json.loads(path.read_text(encoding="utf-8")).get("rules", []):
            src = r.get("source")
            out.append(
                RuleRef(
                    r["id"],
                    r.get("since", ""),
                    r.get("before", ""),
                    r.get("vllm_error"),
                    src if isinstance(src, dict) else {},
                )
            )
    return out


PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdrfixXeEgGc]|…|\.\.\.")
TOKEN = re.compile(r"--?[a-z0-9][a-z0-9_-]*|[a-z0-9_]+|\x00")
PH = "\x00"


def tokens(text: str) -> list[str]:
    """Lower-cased words and --flags; a placeholder ({…}, {name}, %s, ...) is one PH."""
    return TOKEN.findall(PLACEHOLDER.sub(f" {PH} ", text.lower()))


ABSORB = 3  # rule words one {…} of vLLM's message may stand for (a value the rule quotes)


def message_matches(rule_text: str, site_text: str) -> bool:
    """The rule's wording is found word for word and in order in the message: the rule's
    placeholders stand for any run of the message's words, and each {…} of the message for
    up to three words of the rule (a value the rule spells out). At least 75 % of the rule's
    words (and three) must be matched as written. Sibling messages that differ in a word
    (PP vs DCP, --grpc vs --uds, V1 vs V2) do not match."""
    r, s = tokens(rule_text), tokens(site_text)
    literal = sum(1 for t in r if t != PH)
    if literal < 3 or not any(t != PH for t in s):
        return False
    if PH not in s and not {t for t in r if t != PH} <= set(s):
        return False  # a word of the rule is missing and nothing could stand for it
    memo: dict[tuple[int, int], int] = {}

    def best(i: int, j: int) -> int:
        """Most rule words matched as written aligning rule[i:] from site[j:]; -1: none."""
        if i == len(r):
            return 0
        if j == len(s):
            return 0 if all(t == PH for t in r[i:]) else -1
        key = (i, j)
        if key in memo:
            return memo[key]
        if r[i] == PH:
            out = max(best(i + 1, j), best(i, j + 1))
        elif s[j] == PH:
            out = -1
            for a in range(ABSORB + 1):
                if i + a > len(r) or PH in r[i : i + a]:
                    break
                out = max(out, best(i + a, j + 1))
        elif r[i] == s[j]:
            rest = best(i + 1, j + 1)
            out = rest + 1 if rest >= 0 else -1
        else:
            out = -1
        memo[key] = out
        return out

    found = max(best(0, j) for j in range(len(s)))
    return found >= 3 and found >= 0.75 * literal


def rules_for(site: Site, release: str, rules: list[RuleRef]) -> list[str]:
    found: list[str] = []
    for rule in rules:
        if not rule.applies(release):
            continue
        hit = any(path == site.file and site.cites(line) for path, line in rule.cited(release))
        if not hit:
            text = rule.error_for(release)
            hit = bool(text) and message_matches(text, site.message)
        if hit and rule.id not in found:
            found.append(rule.id)
    return sorted(found)


# --------------------------------------------------------------------------
# Mined constraints
# --------------------------------------------------------------------------

# `if x <op> c: raise` refuses what pydantic's bound refuses: op -> (bound, same constant)
GUARD_BOUND = {ast.LtE: "gt", ast.Lt: "ge", ast.GtE: "lt", ast.Gt: "le"}


# A refusal of a name outside a registry the release's validation file lists
# (`registries`: tool-call and reasoning parsers, KV connectors): the generic check on
# schemas/validation/ judges the name (hooks/vllm_lint/argv/mined.py).
REGISTRY_MESSAGES = {
    "tool_call_parser": re.compile(r"^invalid tool call parser"),
    "reasoning_parser": re.compile(r"^invalid reasoning parser"),
    "kv_connector": re.compile(r"^Unsupported connector type"),
}


def mined(site: Site, validation: dict[str, Any] | None) -> bool:
    if validation is None:
        return False
    registries = validation.get("registries", {})
    if any(p.search(site.message) and r in registries for r, p in REGISTRY_MESSAGES.items()):
        return True
    if _enum_meta_lookup(site, validation.get("enums", {})):
        return True
    classes = validation.get("classes", {})
    if site.validator is not None:
        cls, fields, mode = site.validator
        entry = classes.get(cls)
        if entry is not None and mode == "before":
            for f in fields:
                rec = entry["fields"].get(f, {})
                if rec.get("match") == "name_upper" and "rewritten" not in rec:
                    return True
    if not site.guard_nodes:
        return False
    test, in_body = site.guard_nodes[-1]
    if not in_body:
        return False
    # `if cond and self.x <= 0: raise`: pydantic's gt=0 refuses the value first
    conjuncts = (
        test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    )
    owner = site.function.split(".")[0]
    fields = classes.get(owner, {}).get("fields", {})
    return any(_bound_guard(c, fields) for c in conjuncts)


def _enum_meta_lookup(site: Site, enums: dict[str, Any]) -> bool:
    """``_XEnumMeta.__getitem__``: the metaclass of enum ``X`` refusing a member name
    (``MambaBackendEnum[name.upper()]``); the generic check on the validation file's
    ``enums`` judges the name of ``X`` (declared in the same file) first."""
    cls, _, method = site.function.rpartition(".")
    if method != "__getitem__" or not cls.endswith("EnumMeta"):
        return False
    entry = enums.get(cls.lstrip("_")[: -len("Meta")])
    return entry is not None and str(entry.get("source", "")).split(":")[0] == site.file


def _bound_guard(test: ast.expr, fields: dict[str, Any]) -> bool:
    """``self.x <op> c`` refuses exactly what the field's pydantic bound refuses."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    op = type(test.ops[0])
    right = test.comparators[0]
    left = test.left
    if op not in GUARD_BOUND or not isinstance(right, ast.Constant):
        return False
    if not (
        isinstance(left, ast.Attribute)
        and isinstance(left.value, ast.Name)
        and left.value.id == "self"
    ):
        return False
    rec = fields.get(left.attr)
    if not rec or "rewritten" in rec or "skip" in rec:
        return False
    return bool(rec.get(GUARD_BOUND[op]) == right.value)


# --------------------------------------------------------------------------
# One release
# --------------------------------------------------------------------------


def reason_of(site: Site, entries: list[ReasonEntry] | None = None, release: str = "") -> str:
    """The entry of REASONS_DATA that names the site, then what the code says: a function
    outside the engine's startup, a check of a request (one the startup patterns take for a
    startup check: ``_validate_params``, ``check_admission``), a signal handler, ``REASONS``."""
    for entry in entries or ():
        if entry.matches(site, release):
            return entry.reason
    if site.runtime:
        return "runtime"
    if site.request:
        return "request"
    if site.process:
        return "process"
    code = f"{site.code}\n{site.function}"
    for name, code_pattern, message_pattern in REASONS:
        if (site.code and code_pattern.search(code)) or (
            message_pattern is not None and message_pattern.search(site.message)
        ):
            return name
    return ""


def classify(
    site: Site,
    release: str,
    rules: list[RuleRef],
    validation: Any,
    entries: list[ReasonEntry] | None = None,
) -> None:
    site.rules = rules_for(site, release, rules)
    if site.rules:
        site.cover = "rule"
    elif site.kind != "warning" and mined(site, validation):
        site.cover = "mined"
    else:
        site.reason = reason_of(site, entries, release)
        site.cover = "reason" if site.reason else "uncovered"


def lifted_sites(release: str, path: Path = LIFTED) -> set[tuple[str, int]]:
    """(file, line) of every site a shipped lifted entry judges in `release`."""
    from vllm_lint.release import key

    at = key(release)
    found = set()
    for entry in json.loads(path.read_text(encoding="utf-8"))["entries"]:
        if not entry.get("verified"):
            continue
        if not any(key(lo) <= at <= key(hi) for lo, hi in entry["ranges"]):
            continue
        lines = sorted(entry["lines"].items(), key=lambda kv: key(kv[0]))
        line = next((n for rel, n in reversed(lines) if key(rel) <= at), lines[0][1])
        found.add((entry["file"], line))
    return found


def relabel_lifted(data: dict[str, Any], lifted: set[tuple[str, int]]) -> None:
    """The `lifted` cover of a release's records: an uncovered site a shipped entry judges is
    lifted; a lifted one no entry judges any more is uncovered again (rule, mined and reason
    come first and are left as they are)."""
    for record in data["sites"]:
        if record["cover"] in ("uncovered", "lifted"):
            hit = (record["file"], record["line"]) in lifted
            record["cover"] = "lifted" if hit else "uncovered"
    data["summary"] = summarize_records(data["sites"])


def mine_release(
    root: Path, release: str, rules: list[RuleRef], validation_dir: Path = VALIDATION
) -> dict[str, Any]:
    sites, warnings, files = collect(root)
    validation = release_data.load_in(validation_dir, release)
    entries = load_reasons()
    for s in sites + warnings:
        classify(s, release, rules, validation, entries)
    lifted = lifted_sites(release)
    for s in sites:
        if s.cover == "uncovered" and (s.file, s.line) in lifted:
            s.cover = "lifted"
    sites.sort(key=lambda s: (s.file, s.line))
    warnings.sort(key=lambda s: (s.file, s.line))
    # rule citations for this release that match no site (stale lines, or outside the files)
    cited_ids = {r for s in sites + warnings for r in s.rules}
    unmatched = []
    for rule in rules:
        if not rule.applies(release):
            continue
        for path, line in rule.cited(release):
            if rule.id in cited_ids:
                continue
            entry: dict[str, Any] = {
                "rule": rule.id,
                "source": f"{path}:{line}",
                "in_files": path in files,
            }
            constrained = field_constraint_at(root, path, line)
            if constrained:
                entry["field"] = constrained  # the rule mirrors a pydantic bound
            unmatched.append(entry)
    summary = summarize(sites)
    return {
        "format": FORMAT_VERSION,
        "release": release,
        "files": files,
        "summary": summary,
        "warnings_summary": summarize(warnings),
        "unmatched_citations": sorted(unmatched, key=lambda u: (u["rule"], u["source"])),
        "sites": [s.record() for s in sites],
        "warnings": [s.record() for s in warnings],
    }


def field_constraint_at(root: Path, path: str, line: int) -> str:
    """``Class.field`` when ``path:line`` declares a field with a ``Field(gt/ge/...)`` bound
    (a rule that cites it mirrors what schemas/validation/ holds)."""
    p = root / path
    if not p.is_file():
        return ""
    tree = ast.parse(p.read_text(encoding="utf-8"))
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for st in cls.body:
            if (
                isinstance(st, ast.AnnAssign)
                and isinstance(st.target, ast.Name)
                and st.lineno <= line <= (st.end_lineno or st.lineno)
                and isinstance(st.value, ast.Call)
                and any(k.arg in ("gt", "ge", "lt", "le", "multiple_of") for k in st.value.keywords)
            ):
                return f"{cls.name}.{st.target.id}"
    return ""


def summarize(sites: list[Site]) -> dict[str, Any]:
    return summarize_records([s.record() for s in sites])


def summarize_records(records: list[dict[str, Any]]) -> dict[str, Any]:
    c = Counter(r["cover"] for r in records)
    reasons = Counter(r.get("reason", "") for r in records if r["cover"] == "reason")
    return {
        "sites": len(records),
        "rule": c["rule"],
        "mined": c["mined"],
        "lifted": c["lifted"],
        "reason": c["reason"],
        "reasons": dict(sorted(reasons.items())),
        "uncovered": c["uncovered"],
        "rules_covering": len({rule for r in records for rule in r.get("rules", [])}),
    }


def render(data: dict[str, Any]) -> str:
    def j(v: Any) -> str:
        return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    head = ["format", "release", "files", "summary", "warnings_summary", "unmatched_citations"]
    for key in head:
        lines.append(f"{j(key)}:{j(data[key])},")
    for key in ("sites", "warnings"):
        lines.append(f"{j(key)}:[")
        items = data[key]
        for i, item in enumerate(items):
            lines.append(j(item) + ("," if i < len(items) - 1 else ""))
        lines.append("]" + ("," if key == "sites" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# docs/coverage.md
# --------------------------------------------------------------------------

REASON_ORDER = tuple(REASON_KINDS)


def render_doc(per_release: dict[str, dict[str, Any]]) -> str:
    rels = sorted(per_release, key=vkey)
    out = [
        "# Coverage of vLLM's startup refusals",
        "",
        "Generated by `python -m tools.mine_raises` (do not edit): every `raise`, validating",
        "`assert` and `parser.error` that vLLM runs while it starts `vllm serve`, read from the",
        "wheel of each release, and what covers it. Details per site (file:line, function,",
        "exception, message, rules) in `tools/coverage/<release>.json`; the method is in",
        "[tools/README.md](../tools/README.md#raise-sites-and-coverage-mine_raisespy).",
        "",
        "- **rule**: a vllm-lint rule of that release cites the site or quotes its message;",
        "- **mined**: the generic check on the mined pydantic constraints",
        "  (`schemas/validation/`) decides it;",
        "- **lifted**: its guard, lifted from vLLM's source by `tools/lift_raises.py`, is judged",
        "  by VL600 (`schemas/lifted.json`; only conditions vLLM's own verdicts confirmed);",
        "- **reason**: it hangs on something a deployment file does not say (the sites read",
        "  by hand are in `tools/coverage_reasons.json`, each with why):",
        *[f"  - *{name}*: {text};" for name, text in REASON_KINDS.items()],
        "- **uncovered**: none of these (candidates for new rules, or checks of flags the",
        "  linter cannot see the value of).",
        "",
        "## All releases",
        "",
        "| release | sites | rule | mined | lifted | reason | "
        + " | ".join(REASON_ORDER)
        + " | uncovered | rules | ignored-setting warnings (rule) |",
        "|---|---|---|---|---|---|" + "---|" * len(REASON_ORDER) + "---|---|---|",
    ]
    totals: Counter[str] = Counter()
    for rel in rels:
        s = per_release[rel]["summary"]
        w = per_release[rel]["warnings_summary"]
        reasons = s["reasons"]
        row = [
            rel,
            s["sites"],
            s["rule"],
            s["mined"],
            s.get("lifted", 0),
            s["reason"],
            *[reasons.get(r, 0) for r in REASON_ORDER],
            s["uncovered"],
            s["rules_covering"],
            f"{w['sites']} ({w['rule']})",
        ]
        out.append("| " + " | ".join(str(x) for x in row) + " |")
        for k in ("sites", "rule", "mined", "lifted", "reason", "uncovered"):
            totals[k] += s.get(k, 0)
    out += [
        "",
        f"Over the {len(rels)} releases: {totals['sites']} sites, {totals['rule']} covered by a "
        f"rule, {totals['mined']} by mined constraints, {totals['lifted']} lifted from vLLM's "
        f"source, {totals['reason']} not coverable from "
        f"the files (with a reason), {totals['uncovered']} uncovered.",
        "",
    ]
    for rel in rels:
        if rel not in DOC_RELEASES:
            continue
        data = per_release[rel]
        out += [f"## {rel}", "", "| file | sites | rule | mined | lifted | reason | uncovered |"]
        out.append("|---|---|---|---|---|---|---|")
        by_file: dict[str, Counter[str]] = {}
        for site in data["sites"]:
            by_file.setdefault(site["file"], Counter())
            by_file[site["file"]]["sites"] += 1
            by_file[site["file"]][site["cover"]] += 1
        for path in sorted(by_file):
            c = by_file[path]
            out.append(
                f"| `{path}` | {c['sites']} | {c['rule']} | {c['mined']} | {c['lifted']} "
                f"| {c['reason']} | {c['uncovered']} |"
            )
        s = data["summary"]
        out.append(
            f"| **total** | **{s['sites']}** | **{s['rule']}** | **{s['mined']}** "
            f"| **{s.get('lifted', 0)}** | **{s['reason']}** | **{s['uncovered']}** |"
        )
        mirrored = [u for u in data["unmatched_citations"] if u.get("field")]
        if mirrored:
            out += [
                "",
                "Rules that cite a pydantic field bound (the mined check covers them):",
                "",
            ]
            out += [f"- {u['rule']}: `{u['field']}` (`{u['source']}`)" for u in mirrored]
        stale = [u for u in data["unmatched_citations"] if u["in_files"] and not u.get("field")]
        if stale:
            out += [
                "",
                "Rule citations of this release that match no site (a line that moved, or a",
                "message that is not raised where cited):",
                "",
            ]
            out += [f"- {u['rule']}: `{u['source']}`" for u in stale]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", nargs="+", help="default: every release of schemas/flags")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/vllm-wheels"))
    ap.add_argument("--src-dir", type=Path, default=Path("/tmp/vllm-src"))
    ap.add_argument("--no-download", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 if a file or the page is stale")
    ap.add_argument(
        "--relabel",
        action="store_true",
        help="recompute only the lifted cover of the files written (no wheel), and the page",
    )
    ns = ap.parse_args(argv)
    releases = ns.releases or release_list()
    rules = load_rules()
    stale: list[str] = []
    for rel in releases if not ns.relabel else ():
        root = ef.ensure_source(rel, ns.cache_dir, ns.src_dir, not ns.no_download)
        text = render(mine_release(root, rel, rules))
        path = ns.out / f"{rel}.json"
        if ns.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        ns.out.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    per_release = {
        json.loads(p.read_text(encoding="utf-8"))["release"]: json.loads(
            p.read_text(encoding="utf-8")
        )
        for p in sorted(ns.out.glob("*.json"))
    }
    if ns.relabel:
        for rel, data in per_release.items():
            relabel_lifted(data, lifted_sites(rel))
            (ns.out / f"{rel}.json").write_text(render(data), encoding="utf-8")
    doc = render_doc(per_release)
    if ns.check:
        if not ns.doc.is_file() or ns.doc.read_text(encoding="utf-8") != doc:
            stale.append(str(ns.doc))
        if stale:
            print(f"stale: {', '.join(stale)} (run python -m tools.mine_raises)", file=sys.stderr)
            return 1
        print(f"{len(releases)} release(s) and {ns.doc.name} current", file=sys.stderr)
        return 0
    ns.doc.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
