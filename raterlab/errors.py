"""Errors that end a command with their own exit code (see ``raterlab.cli.EXIT_CODES``).

Kept free of imports so that the command line can name them without loading the
warehouse, pandas or DuckDB.
"""


class WarehouseBusy(RuntimeError):
    """Another process kept the warehouse locked for longer than the lock timeout."""
