"""``raterlab labelstudio``: configs and tasks out (per packet), exports in.

raterlab labelstudio export STUDY [--annotator ID] [--batch B]
raterlab labelstudio import STUDY EXPORT.json [--no-ingest]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from raterlab import warehouse
from raterlab.cli.per_packet import add_packet_arguments, run_per_packet
from raterlab.ingest import NoPackets, ingest_file
from raterlab.labelstudio.exports import ExportError, convert, read_export, write_returns
from raterlab.labelstudio.tasks import export_packet
from raterlab.protocol import StudyError, load_study
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "labelstudio",
        help="Label Studio: configs and tasks out, exports in",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    out = actions.add_parser("export", help="write each packet's config (XML) and tasks (JSON)")
    add_packet_arguments(out)
    out.set_defaults(func=lambda args: run_per_packet(args, "labelstudio", export_packet))
    back = actions.add_parser("import", help="a Label Studio JSON export -> inbox -> ingest")
    back.add_argument("study")
    back.add_argument("path", type=Path, help="the JSON export (Export > JSON)")
    back.add_argument("--no-ingest", action="store_true", help="only drop the returns in the inbox")
    back.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    home = Home.from_env()
    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
        converted = convert(study, read_export(args.path))
    except (StudyError, ExportError, FileNotFoundError) as exc:
        print(f"raterlab labelstudio: {exc}", file=sys.stderr)
        return 2
    for note in converted.notes:
        print(f"  not imported: {note}")
    paths = write_returns(home, study, converted)
    status = 0
    for path in paths:
        if args.no_ingest:
            print(f"{path}: in the inbox")
            continue
        try:
            with warehouse.connect(home.warehouse) as con:
                result = ingest_file(study, path, home, con)
        except NoPackets as exc:
            print(f"raterlab labelstudio: {exc}", file=sys.stderr)
            return 2
        detail = f"{result.n_labels} labels" if result.status == "accepted" else result.report
        print(f"{path.name}: {result.status} ({detail})")
        status = max(status, int(result.status == "rejected"))
    return status
