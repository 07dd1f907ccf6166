"""Decide cheaply, from name and bytes alone, whether and how a file should be read.

Most files in a repo cannot launch vLLM; they must cost a read and a byte search,
no parse and no import of the YAML or schema libraries.
"""

from __future__ import annotations

import re
from enum import Enum

YAML_SUFFIXES = frozenset({".yaml", ".yml", ".json"})
SHELL_SUFFIXES = frozenset({".sh", ".bash", ".zsh", ".ksh"})
# Batch job scripts: SLURM, PBS/Torque, LSF (shell scripts with scheduler header comments)
JOB_SUFFIXES = frozenset({".sbatch", ".slurm", ".pbs", ".qsub", ".lsf", ".bsub"})
MAKE_NAMES = frozenset({"makefile", "gnumakefile"})
JUST_NAMES = frozenset({"justfile", ".justfile"})
# Templated YAML by name (Helm `.tpl`, Terraform `.tftpl`, `x.yaml.tpl` for envsubst…).
TEMPLATE_SUFFIXES = frozenset(
    {".tpl", ".tftpl", ".tmpl", ".gotmpl", ".j2", ".jinja", ".jinja2", ".template", ".envsubst"}
)
# Documentation (whose code blocks are read) and Python (read with `ast`, never run).
MARKDOWN_SUFFIXES = frozenset({".md", ".mdx", ".markdown"})
# Dockerfile, Dockerfile.cuda, cuda.Dockerfile, Containerfile (as `identify` names them)
_DOCKERFILE = re.compile(r"(?i)(?:(?:docker|container)file(?:\..+)?|.+\.(?:docker|container)file)")
_SHEBANG_SHELL = re.compile(rb"#![ \t]*\S*/(?:env[ \t]+(?:-\S+[ \t]+)*)?(?:ba|da|z|k)?sh\b")
# A job script without a shebang: its first lines are scheduler directives
_JOB_HEADER = re.compile(rb"(?:[ \t]*(?:#[^\n]*)?\r?\n)*?[ \t]*#(?:SBATCH|PBS|BSUB)[ \t]")

# A vLLM config file need not say "vllm": two dashed top-level keys such as
# `tensor-parallel-size:` make it worth a parse.
_CONFIG_KEY = rb"[a-z0-9]+(?:[-_][a-z0-9]+)+[ \t]*:"
# Such a key at the start of a line: the first line, then after each "\n". Two patterns rather
# than one with (?m)^, which the regex engine tries at every byte; a leading literal "\n" lets
# it jump from line to line (four times faster on a typical manifest).
_FIRST_KEY = re.compile(_CONFIG_KEY)
_NEXT_KEY = re.compile(rb"\n" + _CONFIG_KEY)


class Kind(Enum):
    YAML = "yaml"
    TEMPLATE = "template"  # YAML behind a template language: masked, then read as YAML
    SHELL = "shell"
    DOCKERFILE = "dockerfile"
    MAKE = "make"  # Makefile, *.mk: recipe lines are shell commands
    JUST = "just"  # justfile: recipe bodies are shell commands
    MARKDOWN = "markdown"  # .md, .mdx: fenced code blocks
    RST = "rst"  # reStructuredText: `.. code-block::` directives
    NOTEBOOK = "notebook"  # Jupyter: code and Markdown cells
    PYTHON = "python"
    UNDECIDED = "undecided"  # no suffix: a script if its first line is a shell shebang
    SKIP = "skip"


_BY_SUFFIX = {
    **dict.fromkeys(MARKDOWN_SUFFIXES, Kind.MARKDOWN),
    ".rst": Kind.RST,
    ".ipynb": Kind.NOTEBOOK,
    ".py": Kind.PYTHON,
}
# Kinds whose files are prose or a program first: only a file that names vLLM is parsed (the
# `--config` key test of YAML would match Markdown definition lists and Python annotations).
NAMES_VLLM_ONLY = frozenset({Kind.MARKDOWN, Kind.RST, Kind.NOTEBOOK, Kind.PYTHON})
DOCS = frozenset({Kind.MARKDOWN, Kind.RST, Kind.NOTEBOOK})


def kind_of(path: str) -> Kind:
    """The reader a file needs, by its name alone."""
    name = path.rpartition("/")[2]  # PurePath's name and suffix in str work: this runs per file
    if name in ("", "."):  # `dir/`, `dir/.`: PurePath's own rules
        from pathlib import PurePath  # here: the quick path must not pay for pathlib

        name = PurePath(path).name
    dot = name.rfind(".")
    suffix = name[dot:].lower() if 0 < dot < len(name) - 1 else ""
    if suffix in YAML_SUFFIXES:
        return Kind.YAML
    if _DOCKERFILE.fullmatch(name):
        return Kind.DOCKERFILE
    if suffix in SHELL_SUFFIXES or suffix in JOB_SUFFIXES:
        return Kind.SHELL
    low = name.lower()
    if low in MAKE_NAMES or suffix == ".mk":
        return Kind.MAKE
    if low in JUST_NAMES or suffix == ".just":
        return Kind.JUST
    if suffix in TEMPLATE_SUFFIXES:
        inner = name[:dot].rpartition(".")[2].lower() if "." in name[:dot] else ""
        if f".{inner}" in SHELL_SUFFIXES or f".{inner}" in JOB_SUFFIXES:
            return Kind.SHELL  # `serve.sh.j2`: a script whose `{{ }}` are opaque words
        return Kind.TEMPLATE
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if not suffix and not name.startswith("."):
        return Kind.UNDECIDED
    return Kind.SKIP


def kind_for(path: str, data: bytes) -> Kind:
    """`kind_of`, with an extension-less file decided by its shebang."""
    kind = kind_of(path)
    if kind is Kind.UNDECIDED:
        return Kind.SHELL if is_shell_script(data) else Kind.SKIP
    return kind


def is_shell_script(data: bytes) -> bool:
    """A shell shebang, or a batch job script whose header has no shebang (`#SBATCH …`)."""
    first = data[: data.find(b"\n")] if b"\n" in data[:512] else data[:512]
    return bool(_SHEBANG_SHELL.match(first) or _JOB_HEADER.match(data, 0, 4096))


def worth_parsing(data: bytes, kind: Kind | None = None) -> bool:
    """Does the file mention vLLM, or (YAML) look like a vLLM config file?"""
    if b"vllm" in data or b"VLLM" in data or b"vLLM" in data:
        return True
    if b"engine_kwargs" in data:  # Ray Serve LLM configs need not name vLLM
        return True
    if kind in NAMES_VLLM_ONLY:
        return False
    needed = 1 if _FIRST_KEY.match(data, 0, 65536) else 2  # two keys, in the first 64 KiB
    for _ in _NEXT_KEY.finditer(data, 0, 65536):
        needed -= 1
        if needed == 0:
            return True
    return False


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]
