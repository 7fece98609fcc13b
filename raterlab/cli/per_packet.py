"""Running a front end's writer over the packets in the outbox (``raterlab xlsx``,
``raterlab labelstudio export``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    from raterlab.protocol import Study

Writer = Callable[[Home, "Study", str, str], list[Path]]


def add_packet_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("study", help="study name (a file in studies/)")
    parser.add_argument("--annotator", help="only this annotator's packets")
    parser.add_argument("--batch", help="only this batch")


def run_per_packet(args: argparse.Namespace, command: str, write: Writer) -> int:
    """``write`` each selected packet; print the files written."""
    from raterlab.design.items import PacketError, batches
    from raterlab.protocol import StudyError, load_study

    home = Home.from_env()
    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
        written = []
        for annotator in [args.annotator] if args.annotator else study.design.annotators:
            for batch in [args.batch] if args.batch else batches(home, study, annotator):
                written += write(home, study, annotator, batch)
    except (StudyError, PacketError, FileNotFoundError) as exc:
        print(f"raterlab {command}: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    if not written:
        print(f"no packets of {study.name} in {home.outbox}: run the annotation job first")
        return 1
    return 0
