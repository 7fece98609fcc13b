"""``raterlab tables``: the warehouse tables' reference page and their structural check, both
from the declarations in :mod:`raterlab.tables`."""

from __future__ import annotations

import argparse
from pathlib import Path

from raterlab.settings import Home


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("tables", help="document and check the declared warehouse tables")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    docs = actions.add_parser("docs", help="write docs/gold_tables.md from the declarations")
    docs.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    docs.set_defaults(func=run_docs)
    check = actions.add_parser(
        "check", help="check the warehouse's tables against their declarations"
    )
    check.add_argument("--study", default=None, help="check only this study's rows")
    check.set_defaults(func=run_check)


def run_docs(args: argparse.Namespace) -> int:
    from raterlab.tables.docs import render

    text = render()
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Every concrete declared table (not the per-study wide views) that exists; a table
    not created yet is listed as such, not as a failure."""
    from raterlab import warehouse
    from raterlab.tables import TABLES
    from raterlab.tables.structure import problems

    home = Home.from_env()
    if not home.warehouse.exists():
        print(f"raterlab tables check: no warehouse at {home.warehouse}")
        return 1
    failed = 0
    with warehouse.connect(home.warehouse, read_only=True) as con:
        for table in TABLES.values():
            if "<" in table.name:
                continue
            if not warehouse.table_exists(con, table.name):
                print(f"--   {table.name}: not created yet")
                continue
            found = problems(con, table, args.study)
            failed += bool(found)
            print(f"{'FAIL' if found else 'ok  '} {table.name}")
            for problem in found:
                print(f"     {problem}")
    return 1 if failed else 0
