"""``raterlab labelstudio``: configs and tasks out (per packet), exports in.

raterlab labelstudio export STUDY [--annotator ID] [--batch B]
raterlab labelstudio import STUDY EXPORT.json [--user-map FILE] [--no-ingest]

An import reads a JSON or JSON_MIN export (CSV and TSV are refused: export JSON). Each task
is placed in its packet by the sealed key, and an annotation counts only for its author: a
Label Studio user is the annotator the --user-map FILE names (CSV: user,annotator_id; user is
the Label Studio user's number or email), or without a map the annotator whose id is the
user's email or its part before '@' (exports that name users by number need the map).
Exit 0: everything imported, or nothing changed; 1: a task, annotation or file was refused or
rejected (the rest is imported); 2: the export or user map cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.cli.per_packet import add_packet_arguments, run_per_packet
from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    from raterlab.labelstudio.exports import Converted, Packet
    from raterlab.protocol import Study

VISIBILITY = (
    "Label Studio Community shows every project to every user of the server: an annotator "
    "stays blind to the others' packets only by opening their own project alone."
)


def _export_packet(home: Home, study: Study, annotator: str, batch: str) -> list[Path]:
    """:func:`raterlab.labelstudio.tasks.export_packet`, imported when a packet is written."""
    from raterlab.labelstudio.tasks import export_packet

    return export_packet(home, study, annotator, batch)


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
    out.set_defaults(func=lambda args: run_per_packet(args, "labelstudio", _export_packet))
    back = actions.add_parser("import", help="a Label Studio JSON export -> inbox -> ingest")
    back.add_argument("study")
    back.add_argument("path", type=Path, help="the export (Export > JSON, or JSON_MIN)")
    back.add_argument(
        "--user-map",
        type=Path,
        help="CSV with columns user (Label Studio user number or email) and annotator_id",
    )
    back.add_argument("--no-ingest", action="store_true", help="only drop the returns in the inbox")
    back.set_defaults(func=run_import)


def _read(args: argparse.Namespace, home: Home) -> tuple[Study, Converted]:
    """The study and the export converted against its sealed key and users."""
    from raterlab import warehouse
    from raterlab.ingest import NoPackets
    from raterlab.labelstudio.config import control_names
    from raterlab.labelstudio.exports import convert, sealed_packets
    from raterlab.labelstudio.formats import ExportedTask, read_export, unnamed_authors
    from raterlab.labelstudio.users import UserMapError, Users, read_user_map
    from raterlab.protocol import load_study

    study = load_study(studies_dir() / f"{args.study}.yaml")
    controls = control_names(study)
    tasks: list[ExportedTask] = read_export(args.path, controls)
    issued = home.warehouse.is_file()
    with warehouse.connect(home.warehouse, read_only=True) if issued else nullcontext() as con:
        if con is None or not warehouse.table_exists(con, "staging.blinding_key"):
            raise NoPackets(f"no packets have been issued for study {study.name!r}")
        key = sealed_packets(con, study, [t.token for t in tasks if t.token])
    annotators = frozenset(study.design.annotators) | {p.annotator for p in key.values()}
    if args.user_map:
        users = read_user_map(args.user_map, annotators)
    elif unnamed := unnamed_authors(tasks):
        raise UserMapError(
            f"{args.path.name} names Label Studio users by number only "
            f"({', '.join(unnamed)}): pass --user-map FILE, a CSV with columns user "
            "(the number or email) and annotator_id (GET /api/users lists the numbers)"
        )
    else:
        users = Users(None, annotators)
    return study, convert(study, tasks, key, users)


def _report_conversion(converted: Converted) -> None:
    for line in converted.refused:
        print(f"  refused: {line}")
    for line in converted.notes:
        print(f"  not imported: {line}")
    print(VISIBILITY)
    if converted.seen:
        print("The export shows users working in other annotators' packets:")
        for user, packets in sorted(converted.seen.items()):
            print(f"  {user}: {'; '.join(sorted(packets))}")


def _ingest(study: Study, packet: Packet, path: Path, home: Home, task_ids: list[str]) -> str:
    """Ingest one return; print its outcome; return ``accepted``, ``unchanged`` or
    ``rejected`` (also for content rejected before)."""
    from raterlab import warehouse
    from raterlab.ingest import IngestResult, ingest_file, store

    with warehouse.connect(home.warehouse) as con:
        result: IngestResult = ingest_file(study, path, home, con)
        before = store.known_outcome(con, study.name, result.sha256)
    if result.status == "unchanged":
        if before == "rejected":
            print(f"{path.name}: unchanged, and rejected before (see its report in reports/)")
            return "rejected"
        print(f"{path.name}: unchanged (imported before)")
        return "unchanged"
    if result.status == "accepted":
        changed = {k: v for k, v in result.changes.items() if v and k != "unchanged"}
        detail = ", ".join(f"{v} {k}" for k, v in changed.items()) or "no rating changed"
        print(f"{path.name}: accepted ({result.n_labels} labels; {detail})")
        return "accepted" if changed else "unchanged"
    print(f"{path.name}: rejected ({result.report})")
    rows = result.validation.errors["row"].dropna().astype(int) if result.validation else []
    for row in sorted(set(rows)):
        print(f"  row {row} is Label Studio task {task_ids[row - 2]} of {packet}")
    return "rejected"


def run_import(args: argparse.Namespace) -> int:
    from raterlab.ingest import NoPackets
    from raterlab.labelstudio.exports import write_returns
    from raterlab.labelstudio.formats import ExportError
    from raterlab.labelstudio.users import UserMapError
    from raterlab.protocol import StudyError

    home = Home.from_env()
    try:
        study, converted = _read(args, home)
        paths = write_returns(home, study, converted)
    except (StudyError, ExportError, UserMapError, NoPackets, FileNotFoundError) as exc:
        print(f"raterlab labelstudio: {exc}", file=sys.stderr)
        return 2
    _report_conversion(converted)
    outcomes = []
    for packet, path in paths.items():
        if args.no_ingest:
            print(f"{path}: in the inbox")
            continue
        outcomes.append(_ingest(study, packet, path, home, converted.task_ids[packet]))
    refused = bool(converted.refused) or "rejected" in outcomes
    if outcomes and set(outcomes) == {"unchanged"}:
        print("Nothing changed: every annotation of this export was imported before.")
    elif not paths:
        print("No annotation of this export was imported.")
    return int(refused)
