"""``raterlab validate`` (a dry run, read-only: says exactly what ``ingest`` would do),
``raterlab ingest`` (one file, now) and ``raterlab import`` (annotations collected elsewhere)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    from raterlab.ingest.returns import IngestResult


def register(sub: argparse._SubParsersAction) -> None:
    validate = sub.add_parser(
        "validate", help="say what ingesting a returned file would do; writes nothing"
    )
    ingest = sub.add_parser("ingest", help="ingest one returned file now (outside the schedule)")
    for parser in (validate, ingest):
        parser.add_argument("path", type=Path, help="the returned CSV or JSONL file")
        parser.add_argument("--study", required=True, help="study name (a file in studies/)")
    validate.set_defaults(func=run_validate)
    ingest.set_defaults(func=run_ingest)
    register_import(sub)


def _study(name: str):
    from raterlab.protocol import load_study

    return load_study(studies_dir() / f"{name}.yaml")


def changes_line(changes: dict[str, int]) -> str:
    """``3 new, 1 replaced, 45 unchanged, 0 older`` (ratings per change)."""
    return ", ".join(f"{changes.get(c, 0)} {c}" for c in ("new", "replaced", "unchanged", "older"))


def run_validate(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.files import sha256_of
    from raterlab.ingest import NoPackets, preview
    from raterlab.ingest.issue_report import markdown, report_dict
    from raterlab.protocol import StudyError

    try:
        study = _study(args.study)
        home = Home.from_env()
        if not home.warehouse.exists():
            raise NoPackets(f"no warehouse at {home.warehouse}: run the annotation job first")
        with warehouse.connect(home.warehouse, read_only=True) as con:
            outcome = preview(study, args.path, con)
    except (StudyError, NoPackets, FileNotFoundError) as exc:
        print(f"raterlab validate: {exc}")
        return 2
    if outcome.status == "unchanged":
        print(f"{args.path.name}: unchanged: this exact file was ingested before; nothing to do")
        return 0
    status = f"would be {outcome.status}"
    if outcome.status == "accepted":
        status += f": {changes_line(outcome.changes)}"
    issues = outcome.validation.issues
    print(
        markdown(report_dict(args.path.name, study.name, sha256_of(args.path), status, issues)),
        end="",
    )
    return 0 if outcome.status == "accepted" else 1


def run_ingest(args: argparse.Namespace) -> int:
    """Ingest the file, say what became of it, then publish (what it wrote, or what an
    earlier command left unpublished); a failed publish ends the command with
    :class:`~raterlab.errors.PublishFailed` after the outcome is printed."""
    from raterlab import warehouse
    from raterlab.ingest import NoPackets, ingest_file
    from raterlab.ingest.store import WRITTEN
    from raterlab.protocol import StudyError
    from raterlab.publish import publish, publish_pending

    try:
        study = _study(args.study)
        home = Home.from_env()
        with warehouse.connect(home.warehouse) as con:
            result = ingest_file(study, args.path, home, con)
            _print_result(result)
            if result.status == "unchanged":
                publish_pending(con, home.published)
            else:
                publish(con, home.published, WRITTEN)
    except (StudyError, NoPackets, FileNotFoundError) as exc:
        print(f"raterlab ingest: {exc}")
        return 2
    return 1 if result.status == "rejected" else 0


def _print_result(result: IngestResult) -> None:
    print(f"{result.file}: {result.status}", end="")
    if result.status == "accepted":
        print(
            f": {changes_line(result.changes)} rating(s); {result.n_labels} labels written "
            f"({result.n_errors} error(s), {result.n_warnings} warning(s))"
            + (f"; report: {result.report}" if result.report else "")
        )
    elif result.status == "rejected":
        print(f", {result.n_errors} error(s); report: {result.report}")
    else:
        print(" (this exact file was ingested before; nothing to do)")
    for earlier in result.superseded:
        print(f"  no rating from {earlier} is current any more")


def register_import(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import", help="load annotations collected elsewhere into a study (no packets)"
    )
    parser.add_argument("path", type=Path, help="CSV or JSONL: long (unit, rater, fields) or wide")
    parser.add_argument("--study", required=True)
    parser.add_argument("--task", help="the task the file answers (default: the study's only task)")
    parser.add_argument("--unit", required=True, help="column holding the item id")
    parser.add_argument("--rater", help="column holding the rater id (long files)")
    parser.add_argument("--field", help="wide files: the field the rater columns hold")
    parser.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.ingest import UnreadableFile
    from raterlab.ingest.imports import import_file
    from raterlab.ingest.issue_report import markdown, report_dict
    from raterlab.ingest.store import WRITTEN
    from raterlab.protocol import StudyError
    from raterlab.publish import publish

    try:
        study = _study(args.study)
        task = args.task or (next(iter(study.tasks)) if len(study.tasks) == 1 else None)
        if task not in study.tasks:
            raise ValueError(f"name the task with --task (one of {', '.join(study.tasks)})")
        home = Home.from_env()
        with warehouse.connect(home.warehouse) as con:
            result = import_file(
                study, task, args.path, home, con, args.unit, args.rater, args.field
            )
            publish(con, home.published, WRITTEN)
    except (StudyError, ValueError, FileNotFoundError, UnreadableFile) as exc:
        print(f"raterlab import: {exc}")
        return 2
    if result.status == "rejected":
        report = report_dict(
            args.path.name, study.name, result.sha256, "rejected", result.validation.issues
        )
        print(markdown(report), end="")
        print(f"report: {result.report}")
        return 1
    if result.status == "unchanged":
        print(f"{result.file}: unchanged (this exact file was imported before; nothing to do)")
        return 0
    print(f"{result.file}: {result.status}, {result.n_labels} labels into {study.name}.{task}")
    return 0
