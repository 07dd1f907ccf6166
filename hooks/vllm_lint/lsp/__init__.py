"""`vllm-lint server`: the language server (LSP over stdio), an optional extra
(`pip install -e '.[lsp]'` in a clone). Nothing else imports this package: the hook and the Action
never load pygls."""

from __future__ import annotations

from collections.abc import Sequence

from vllm_lint.exits import EXIT_CLEAN, UsageError


def server_command(args: Sequence[str]) -> int:
    if args:
        raise UsageError(f"server: unexpected argument {args[0]} (it speaks LSP on stdin/stdout)")
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError(
            "the language server needs pygls: pip install -e '.[lsp]' in the vllm-lint clone"
        ) from None
    from vllm_lint.lsp.server import serve

    serve()
    return EXIT_CLEAN
