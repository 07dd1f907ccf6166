"""How a run ends: exit codes (as actionlint numbers them), the levels `--fail-on` takes, and
the usage error that is one line on stderr. Imports nothing: every run needs it."""

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3
FAIL_LEVELS = ("error", "warning", "info", "never")


class UsageError(Exception):
    """Bad arguments or configuration: one line on stderr, exit 2."""
