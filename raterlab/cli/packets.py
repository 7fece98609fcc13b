"""`raterlab packets`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("packets", help="(not yet implemented)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("raterlab packets: not implemented yet")
