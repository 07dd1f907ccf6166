"""What vLLM accepts but does not act on: words it takes without complaint and then ignores.

- `--config=FILE` (VL018): FlexibleArgumentParser loads a config file only when the word
  `--config` stands alone (`if "--config" in args`, vllm/utils/argparse_utils.py:372 in 0.33;
  vllm/utils.py:1349 in 0.8.5): written with `=`, argparse stores the path and no flag of the
  file is read. `--config` twice is refused (VL019: "More than one config file specified!").
- A key of the `--config` file that the command line sets too (VL906): the file's arguments
  are put before the command line's, so the command line wins and the file's value is lost.
- A flag vLLM reads only when a switch is on (VL021): the `conditional` flags of the mined
  validation data (`--max-loras` without `--enable-lora`: vLLM builds LoRAConfig only then).
- A flag given twice with different values (VL022): argparse keeps the last.
"""

from __future__ import annotations

from collections.abc import Sequence

from vllm_lint.argv.catalog import Catalog, settings_path
from vllm_lint.effective.settings import Settings
from vllm_lint.model import Problem, ReleaseChoice, Span, Token, problem


def config_problems(argv: Sequence[Token], release: ReleaseChoice) -> list[Problem]:
    """VL018 for `--config=FILE`, VL019 for a second `--config`."""
    problems = []
    alone = [t for t in argv if t.text == "--config"]
    for tok in argv:
        if tok.text.startswith("--config=") and not tok.opaque:
            problems.append(problem("VL018", tok.span, release, path=tok.text.partition("=")[2]))
    if len(alone) > 1:
        problems.append(problem("VL019", alone[1].span, release))
    return problems


def overridden(from_file: dict[str, Span], settings: Settings, config_path: str) -> list[Problem]:
    """VL906: the paths the config file set whose value the command line replaced."""
    problems = []
    for path, span in from_file.items():
        now = settings.spans.get(path)
        if span.path != config_path or now is None or now.path == config_path:
            continue
        if path.startswith("derived.") or "." in path:
            continue  # a key inside a JSON flag: the whole flag is judged, once
        problems.append(
            problem(
                "VL906",
                span,
                settings.release,
                flag="--" + path.replace("_", "-"),
                line=f"{now.path}:{now.line}",
            )
        )
    return problems


def switched_off(settings: Settings, cat: Catalog, conditional: dict[str, str]) -> list[Problem]:
    """VL021: flags written whose switch is off, so vLLM never builds their config."""
    problems = []
    for flag, switch in conditional.items():
        spec, on = cat.flags.get(flag), cat.flags.get(switch) if switch else None
        if spec is None or on is None:
            continue
        path = settings_path(spec)
        span = settings.spans.get(path)
        if span is None or settings.is_opaque(path) or settings.partial:
            continue
        if on.default is True or settings.get(settings_path(on)) is True:
            continue
        if settings.is_opaque(settings_path(on)):
            continue
        problems.append(problem("VL021", span, settings.release, flag=flag, switch=switch))
    return problems
