"""Recorded verdicts: vLLM's answer to one case, stored one compact JSON object a line.

`tests/data/verdicts/<release>.jsonl` holds one release's verdicts, sorted by key so that
re-recording gives small diffs. Fields: `key`, `release`, `argv` (the exact argument list),
`env`, `kind` (the oracle's model kind), `origin`, `family`, `accepted`, and when vLLM
refused: `error` (its message, shortened), `type`, `stage` (parse|config), `source` (the
vLLM file:line that raised). `cfg` keeps a few effective values of an accepted config
(the defaults that decide rules).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cases import Case

VERDICTS_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "verdicts"
MAX_MESSAGE = 300
# effective config values kept from an accepted case (oracle `config` summary keys)
CONFIG_KEYS = (
    "enable_prefix_caching",
    "mamba_cache_mode",
    "mamba_backend",
    "use_v2_model_runner",
    "enable_chunked_prefill",
    "max_model_len",
)


class VerdictFileError(Exception):
    """A verdict file that cannot be read: names the file and line."""


@dataclass(frozen=True)
class Verdict:
    case: Case
    accepted: bool
    error: str = ""
    error_type: str = ""
    stage: str = ""
    source: str = ""
    config: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_answer(cls, case: Case, answer: Mapping[str, Any]) -> Verdict:
        summary = answer.get("config") or {}
        return cls(
            case=case,
            accepted=bool(answer["accepted"]),
            error=_shorten(answer.get("error") or ""),
            error_type=answer.get("error_type") or "",
            stage=answer.get("stage") or "",
            source=answer.get("source") or "",
            config={k: summary[k] for k in CONFIG_KEYS if k in summary},
        )

    def to_json(self) -> str:
        c = self.case
        record: dict[str, Any] = {"key": c.key, "release": c.release, "argv": list(c.argv)}
        if c.env:
            record["env"] = dict(c.env)
        record["kind"] = c.model_kind
        if c.gpus != 8:
            record["gpus"] = c.gpus
        record.update(origin=c.origin, family=c.family, accepted=self.accepted)
        if not self.accepted:
            record.update(
                error=self.error, type=self.error_type, stage=self.stage, source=self.source
            )
        elif self.config:
            record["cfg"] = dict(self.config)
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Verdict:
        case = Case(
            release=record["release"],
            argv=tuple(record["argv"]),
            env=tuple(sorted((record.get("env") or {}).items())),
            model_kind=record["kind"],
            origin=record.get("origin", ""),
            family=record.get("family", ""),
            gpus=record.get("gpus", 8),
        )
        return cls(
            case=case,
            accepted=bool(record["accepted"]),
            error=record.get("error", ""),
            error_type=record.get("type", ""),
            stage=record.get("stage", ""),
            source=record.get("source", ""),
            config=record.get("cfg") or {},
        )


def _shorten(message: str) -> str:
    message = " ".join(message.split())
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def path_for(release: str, folder: Path = VERDICTS_DIR) -> Path:
    return folder / f"{release}.jsonl"


def load(path: Path) -> list[Verdict]:
    verdicts = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise VerdictFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            verdicts.append(Verdict.from_record(json.loads(line)))
        except (ValueError, KeyError, TypeError) as exc:
            raise VerdictFileError(f"{path}:{n}: not a verdict record: {exc}") from None
    return verdicts


def load_all(folder: Path = VERDICTS_DIR) -> dict[str, list[Verdict]]:
    """Every release's verdicts, by release."""
    return {p.stem: load(p) for p in sorted(folder.glob("*.jsonl"))}


def save(path: Path, verdicts: Iterable[Verdict]) -> int:
    """Write verdicts sorted by key, one per key (a later verdict replaces an earlier one)."""
    by_key = {v.case.key: v for v in verdicts}
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [by_key[k].to_json() for k in sorted(by_key)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


def merged(old: Iterable[Verdict], new: Iterable[Verdict]) -> Iterator[Verdict]:
    yield from old
    yield from new
