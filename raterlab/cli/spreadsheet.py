"""``raterlab xlsx``: spreadsheet versions of the packets in the outbox (see
:mod:`raterlab.design.xlsx`); a returned ``.xlsx`` is ingested like a returned CSV."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.cli.per_packet import add_packet_arguments, run_per_packet
from raterlab.settings import Home

if TYPE_CHECKING:
    from raterlab.protocol import Study


def _xlsx_packet(home: Home, study: Study, annotator: str, batch: str) -> list[Path]:
    """:func:`raterlab.design.xlsx.xlsx_packet`, imported when a packet is written."""
    from raterlab.design.xlsx import xlsx_packet

    return xlsx_packet(home, study, annotator, batch)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "xlsx", help="write .xlsx packets (validated dropdowns, locked ids) beside the CSV ones"
    )
    add_packet_arguments(parser)
    parser.set_defaults(func=lambda args: run_per_packet(args, "xlsx", _xlsx_packet))
