"""``raterlab xlsx``: spreadsheet versions of the packets in the outbox (see
:mod:`raterlab.design.xlsx`); a returned ``.xlsx`` is ingested like a returned CSV."""

from __future__ import annotations

import argparse
import sys

from raterlab.design.xlsx import xlsx_packet
from raterlab.label.items import PacketError, batches
from raterlab.protocol import StudyError, load_study
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "xlsx", help="write .xlsx packets (validated dropdowns, locked ids) beside the CSV ones"
    )
    parser.add_argument("study", help="study name (a file in studies/)")
    parser.add_argument("--annotator", help="only this annotator's packets")
    parser.add_argument("--batch", help="only this batch")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    home = Home.from_env()
    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
        annotators = [args.annotator] if args.annotator else study.design.annotators
        written = []
        for annotator in annotators:
            for batch in [args.batch] if args.batch else batches(home, study, annotator):
                written += xlsx_packet(home, study, annotator, batch)
    except (StudyError, PacketError, FileNotFoundError) as exc:
        print(f"raterlab xlsx: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    if not written:
        print(f"no packets of {study.name} in {home.outbox}: run the annotation job first")
        return 1
    return 0
