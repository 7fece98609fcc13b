"""`raterlab ingest`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("ingest", help="(being built)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("raterlab ingest: not available yet")
