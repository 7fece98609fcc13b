"""`raterlab simulate`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("simulate", help="(being built)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("raterlab simulate: not available yet")
