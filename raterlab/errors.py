"""Errors that end a command with their own exit code (see ``raterlab.cli.EXIT_CODES``).

Kept free of imports so that the command line can name them without loading the
warehouse, pandas or DuckDB.
"""


class WarehouseBusy(RuntimeError):
    """Another process kept the warehouse locked for longer than the lock timeout."""


class SecretMismatch(RuntimeError):
    """The blinding secret is missing or is not the one the outstanding packets were sealed
    with: ingesting, re-sealing or re-issuing with it would break every annotator's packet."""


class PublishFailed(RuntimeError):
    """A write was committed to the warehouse, but ``published.duckdb`` could not be
    refreshed (a full disk, a target that cannot be written): researchers see the previous
    copy until the next command or run that publishes, which publishes what is newer."""


class StudyChanged(ValueError):
    """The study file no longer has a field (or task) the stored ratings have, and does not
    say what became of it (``renamed`` under the task): going on would drop those ratings
    from every table and report without a word."""
