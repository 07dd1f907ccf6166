"""`--show-invocations`: what the linter saw, one block per vLLM launch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from .engine import Options, settings_for
from .model import FileResult


def show(results: Sequence[FileResult], options: Options, out: TextIO) -> None:
    count = 0
    for result in results:
        for invocation in result.invocations:
            count += 1
            settings, _ = settings_for(invocation, options)
            first = invocation.argv[0].span.line if invocation.argv else 0
            out.write(f"{invocation.path}:{first}: {invocation.origin}\n")
            out.write(f"  release: {settings.release.version} ({settings.release.reason})\n")
            if invocation.partial:
                out.write("  partial: some words are not literal and were not checked\n")
            explicit = {
                path: settings.get(path)
                for path in sorted(settings.spans)
                if not path.startswith("env.") and "." not in path and path != "image"
            }
            for path, value in explicit.items():
                out.write(f"  --{path.replace('_', '-')} {json.dumps(value)}\n")
            for name in sorted(invocation.env):
                token = invocation.env[name]
                out.write(f"  env {name}={'<not literal>' if token.opaque else token.text}\n")
    out.write(f"{count} vLLM invocation(s) in {len(results)} file(s).\n")
