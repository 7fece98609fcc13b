"""The ``raterlab`` command; each subcommand lives in a module with a ``register`` function.

Only the module of the command being run is imported (:mod:`raterlab.cli.commands`); the
others appear in ``raterlab --help`` by their one-line help alone.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from raterlab.cli.commands import COMMANDS
from raterlab.errors import PublishFailed, SecretMismatch, StudyChanged, WarehouseBusy

EXIT_WAREHOUSE_BUSY = 75
"""Another process kept the warehouse locked past ``RATERLAB_LOCK_TIMEOUT``; writes are
idempotent, so run the command again later (``EX_TEMPFAIL`` in BSD's sysexits.h). Distinct
from 1, a rejected file."""
EXIT_NOT_PUBLISHED = 73
"""The write was committed, but ``published.duckdb`` could not be refreshed (a full disk);
the next command or run that publishes does it (``EX_CANTCREAT``)."""
EXIT_SECRET = 78
"""The blinding secret is missing or not the one the packets were sealed with: restore it
from a backup; nothing was written (``EX_CONFIG``)."""
EXIT_STUDY_CHANGED = 65
"""The study file dropped a field (or task) the stored ratings have without saying what it
became (``renamed``); nothing was written (``EX_DATAERR``)."""
EXIT_CODES: dict[type[Exception], int] = {
    WarehouseBusy: EXIT_WAREHOUSE_BUSY,
    PublishFailed: EXIT_NOT_PUBLISHED,
    SecretMismatch: EXIT_SECRET,
    StudyChanged: EXIT_STUDY_CHANGED,
}
"""Errors that end any command with one line on stderr and their own exit code."""


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (its first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with the full parsers of ``command``'s module (every module when None is
    not enough: pass a command name), and one-line entries for the other commands."""
    parser = argparse.ArgumentParser(
        prog="raterlab",
        description="Run human-annotation studies for LLM evaluation end to end.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if command in COMMANDS:
        importlib.import_module(f"raterlab.cli.{COMMANDS[command][0]}").register(sub)
    for name, (_, help_text) in COMMANDS.items():
        if name not in sub.choices:
            sub.add_parser(name, help=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command_of(argv)).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except tuple(EXIT_CODES) as exc:
        print(f"raterlab {args.command}: {exc}", file=sys.stderr)
        return next(code for kind, code in EXIT_CODES.items() if isinstance(exc, kind))


if __name__ == "__main__":
    sys.exit(main())
