"""How long `vllm-lint server` takes to re-check a buffer after a change: the time from the
client's didChange to the server's publishDiagnostics, for a typical Kubernetes manifest
(a Deployment of the vLLM image with a dozen flags, two of them wrong).

    python benchmarks/lsp_latency.py [--changes 50] [--file PATH]

Needs the `lsp` extra (pygls). Prints the cold open (the first lint loads the catalogs and
rules) and the median, 90th percentile and maximum of the changes, in milliseconds. Each
change edits the flag's value, as typing does; the server lints the whole buffer each time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

MANIFEST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.20.2
          args:
            - --model=Qwen/Qwen3-8B
            - --served-model-name=qwen
            - --tensor-parallel-size=2
            - --max-model-len=8192
            - --gpu-memory-utilization=0.9
            - --enable-prefix-caching
            - --max-num-seqs=VALUE
            - --swap-space=4
            - --max-num-batched-tokens=8192
            - --dtype=bfloat16
            - --kv-cache-dtype=fp8
            - --port=8000
          resources:
            limits:
              nvidia.com/gpu: 2
"""


async def measure(text: str, changes: int) -> tuple[float, list[float]]:
    client = LanguageClient("vllm-lint-bench", "1")
    arrived: asyncio.Queue[float] = asyncio.Queue()
    counts: list[int] = []

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        counts.append(len(params.diagnostics))
        arrived.put_nowait(time.perf_counter())

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deploy.yaml"
        path.write_text(text.replace("VALUE", "8"), encoding="utf-8")
        await client.start_io(sys.executable, "-m", "vllm_lint", "server")
        await client.initialize_async(
            lsp.InitializeParams(
                capabilities=lsp.ClientCapabilities(),
                workspace_folders=[lsp.WorkspaceFolder(Path(folder).as_uri(), "bench")],
            )
        )
        client.initialized(lsp.InitializedParams())
        uri = path.as_uri()
        start = time.perf_counter()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text.replace("VALUE", "8")
                )
            )
        )
        cold = await arrived.get() - start
        times = []
        for n in range(changes):
            start = time.perf_counter()
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(version=n + 2, uri=uri),
                    [lsp.TextDocumentContentChangeWholeDocument(text.replace("VALUE", str(n)))],
                )
            )
            times.append(await arrived.get() - start)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    # a benchmark of nothing would be fast: each change must have been judged
    assert counts and min(counts) > 0, f"no diagnostics: {counts}"
    return cold, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--file", type=Path, help="a manifest of your own (VALUE is varied)")
    ns = parser.parse_args()
    text = ns.file.read_text(encoding="utf-8") if ns.file else MANIFEST
    cold, times = asyncio.run(measure(text, ns.changes))
    ms = sorted(t * 1000 for t in times)
    p90 = ms[int(len(ms) * 0.9) - 1]
    print(f"open (cold): {cold * 1000:.0f} ms")
    print(
        f"re-check after a change ({len(ms)} changes): median {statistics.median(ms):.1f} ms, "
        f"p90 {p90:.1f} ms, max {ms[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
