"""The ``raterlab`` command; each subcommand lives in a module with a ``register`` function."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from raterlab.cli import adjudicate, agree, ingest, report, simulate, study

SUBCOMMANDS = (study, simulate, ingest, agree, adjudicate, report)


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
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
