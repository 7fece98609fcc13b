"""``raterlab history`` (every version of a rating: current and replaced, with who, when and
from which file) and ``raterlab withdraw`` (take a rating back, explicitly, keeping it in
history)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

from raterlab.settings import Home, studies_dir

SHOWN = (
    "annotator_id",
    "item_id",
    "token",
    "field",
    "value",
    "source_file",
    "source_row",
    "ingested_at",
    "change",
    "replaced_at",
    "replaced_by_file",
)


def register(sub: argparse._SubParsersAction) -> None:
    history = sub.add_parser(
        "history", help="every version of ratings: current, replaced, withdrawn"
    )
    history.add_argument("--study", required=True)
    history.add_argument("--annotator", help="only this annotator's ratings")
    history.add_argument("--item", help="only this item (an item id or a packet token)")
    history.add_argument(
        "--csv",
        action="store_true",
        help="print CSV instead of a table (cells a spreadsheet would run are neutralised)",
    )
    history.set_defaults(func=run_history)
    withdraw = sub.add_parser(
        "withdraw", help="withdraw an annotator's rating of an item (kept in history)"
    )
    withdraw.add_argument("--study", required=True)
    withdraw.add_argument("--annotator", required=True)
    withdraw.add_argument("--item", required=True, help="an item id or a packet token")
    withdraw.add_argument("--reason", required=True, help="why (recorded in history)")
    withdraw.set_defaults(func=run_withdraw)


def run_history(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.csvsafe import csv_text
    from raterlab.ingest import ratings, store

    home = Home.from_env()
    if not home.warehouse.exists():
        print(f"raterlab history: no warehouse at {home.warehouse}")
        return 2
    with warehouse.connect(home.warehouse, read_only=True) as con:
        if not store.table_exists(con, ratings.HISTORY):
            print("raterlab history: nothing ingested yet")
            return 2
        rows = ratings.history(con, args.study, args.annotator, args.item)
    if rows.empty:
        print("no rating matches")
        return 1
    rows = rows[list(SHOWN)]
    print(csv_text(rows), end="") if args.csv else print(rows.to_string(index=False))
    return 0


def run_withdraw(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.ingest import ratings, store
    from raterlab.protocol import StudyError, load_study

    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
    except StudyError as exc:
        print(f"raterlab withdraw: {exc}")
        return 2
    home = Home.from_env()
    with warehouse.connect(home.warehouse) as con:
        store.ensure_tables(con)
        n = ratings.withdraw(
            con, study.name, args.annotator, args.item, args.reason, datetime.now(UTC)
        )
    if not n:
        print(f"no current rating of {args.item} by {args.annotator} in {study.name}")
        return 1
    print(f"withdrew {n} rating(s) of {args.item} by {args.annotator}; see raterlab history")
    return 0
