"""The ``raterlab`` command; each subcommand lives in a module with a ``register`` function."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from raterlab.cli import (
    adjudicate,
    agree,
    calibrate,
    history,
    ingest,
    judges,
    pilot,
    report,
    simulate,
    study,
    tables,
)
from raterlab.cli import label as label_cli
from raterlab.cli import labelstudio as labelstudio_cli
from raterlab.cli import spreadsheet as spreadsheet_cli
from raterlab.warehouse import WarehouseBusy

SUBCOMMANDS = (
    study,
    simulate,
    ingest,
    history,
    agree,
    adjudicate,
    calibrate,
    judges,
    pilot,
    report,
)
SUBCOMMANDS += (label_cli, labelstudio_cli, spreadsheet_cli)
SUBCOMMANDS += (tables,)
EXIT_WAREHOUSE_BUSY = 75
"""Another process kept the warehouse locked past ``RATERLAB_LOCK_TIMEOUT``; writes are
idempotent, so run the command again later (``EX_TEMPFAIL`` in BSD's sysexits.h). Distinct
from 1, a rejected file."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="raterlab",
        description="Run human-annotation studies for LLM evaluation end to end.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WarehouseBusy as exc:
        print(f"raterlab {args.command}: {exc}", file=sys.stderr)
        return EXIT_WAREHOUSE_BUSY


if __name__ == "__main__":
    sys.exit(main())
