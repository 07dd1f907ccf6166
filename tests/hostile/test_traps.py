"""A repo full of traps: nothing in it runs, nothing outside it is read, and nothing it
says can forge output (workflow commands, terminal escapes, JSON structure)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from childrun import TIMING_FILE, lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

# Records every file opened, process started and module imported, via Python's audit hooks.
AUDIT = """
import os, sys
_log = open(os.environ["AUDIT_LOG"], "w")
def _hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        writes = (args[2] or 0) & (os.O_WRONLY | os.O_RDWR) or any(c in (args[1] or "") for c in "wax+")
        _log.write(("write" if writes else "open") + "\\t" + os.fsdecode(args[0]) + "\\n")
    elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"):
        _log.write("exec\\t" + repr(args[:2]) + "\\n")
    elif event == "import" and args[1]:
        _log.write("import\\t" + str(args[1]) + "\\n")
    _log.flush()
sys.addaudithook(_hook)
"""


def _trap_repo(root: Path, canary: Path) -> None:
    (root / "deploy").mkdir()
    (root / "deploy" / "vllm.yaml").write_text(f"""
apiVersion: v1
kind: Pod
metadata: {{name: trap}}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      command: ["/bin/sh", "-c"]
      args:
        - |
          vllm serve $(touch {canary}) `touch {canary}` --max-model-len $(cat /etc/passwd) \\
            --hf-overrides "$(python -c 'import os; os.system(\\"touch {canary}\\")')"
    - name: v2
      image: vllm/vllm-openai:v0.33.0
      args: ["m", "--config", "../../../../etc/passwd", "--chat-template", "{canary}"]
""")
    (root / "conftest.py").write_text(f"open({str(canary)!r}, 'w').write('conftest ran')\n")
    # Python is read as text (issue 20): its launch is found, the code never runs
    (root / "launch.py").write_text(
        f"import os\nopen({str(canary)!r}, 'w')\nos.system('vllm serve m --swap-space 4')\n"
    )
    (root / "evil.pth").write_text(f"import os; os.system('touch {canary}')\n")
    (root / "setup.py").write_text(f"open({str(canary)!r}, 'w')\n")
    (root / "vllm_lint.py").write_text(f"open({str(canary)!r}, 'w')\n")  # shadowing attempt
    (root / "yaml.py").write_text(f"open({str(canary)!r}, 'w')\n")
    os.symlink("/etc", root / "etc")
    os.symlink("/etc/os-release", root / "release.yaml")
    (root / ".git").mkdir()  # a fake git dir: git must not be trusted to run anything from it
    (root / ".git" / "config").write_text(f"[core]\n\tfsmonitor = touch {canary}\n")


def test_nothing_runs_and_nothing_outside_is_read(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    canary = tmp_path / "PWNED"
    _trap_repo(root, canary)
    log = tmp_path / "audit.log"
    os.environ["AUDIT_LOG"] = str(log)
    try:
        child = lint(root, "--format", "json", ".", prelude=AUDIT)
    finally:
        del os.environ["AUDIT_LOG"]
    assert child.code in (0, 1)
    assert not canary.exists()
    events = [line.split("\t", 1) for line in log.read_text().splitlines()]
    allowed = (sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parents[2]), "/dev/null")
    # vllm-lint's own cache of its built-in rules (rules/cache.py), never the repo's
    own_cache = os.environ.get("VLLM_LINT_CACHE_DIR") or None
    for kind, what in events:
        if kind in ("open", "write") and what.endswith(TIMING_FILE):
            continue  # the harness's own record of the time spent
        if kind in ("open", "write"):
            where = Path(what) if os.path.isabs(what) else root / what
            resolved = where.resolve()
            inside = resolved.is_relative_to(root.resolve())
            if own_cache is not None and resolved.is_relative_to(Path(own_cache).resolve()):
                continue
            assert inside or str(resolved).startswith(allowed) or what.startswith(allowed), what
            assert not (inside and kind == "write"), what  # the repo is only read
        elif kind == "exec":
            assert "'git'" in what, what  # only git, to list the files
        elif kind == "import":
            assert not Path(what).resolve().is_relative_to(root.resolve()), what
    data = json.loads(child.out)
    assert any(f["rule"] == "VL921" for f in data["findings"])  # the link was reported
    assert any(f["path"] == "launch.py" and f["rule"] == "VL002" for f in data["findings"])


def test_hostile_names_and_values_cannot_forge_output(tmp_path: Path) -> None:
    name = "evil\n::error file=x,line=1::forged\x1b[31m%0A.yaml"
    (tmp_path / name).write_text(
        "services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n"
        "    command: [m, '--tensor-parallel-size', \"\\e[31m\\r\\n::warning::x\"]\n"
    )
    text = lint(tmp_path, "--color", "never", ".").out
    assert "\x1b" not in text and "\r" not in text
    assert not any(line.startswith("::") for line in text.splitlines())
    data = json.loads(lint(tmp_path, "--format", "json", ".").out)
    [finding] = data["findings"]
    assert finding["path"] == name and finding["rule"] == "VL004"
    github = lint(tmp_path, "--format", "github", ".").out
    commands = [line for line in github.splitlines() if line.startswith("::")]
    annotations = [c for c in commands if c.startswith(("::error ", "::warning ", "::notice "))]
    assert len(annotations) == 1, commands  # the one finding, and nothing forged
    # the properties end at the first `::`; a file name cannot smuggle one in
    properties = annotations[0][2:].split("::", 1)[0]
    assert ":" not in properties and properties.endswith("title=VL004 bad-value-type")
