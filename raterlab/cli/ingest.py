"""``raterlab validate`` (a dry run, read-only) and ``raterlab ingest`` (one file, now)."""

from __future__ import annotations

import argparse
from pathlib import Path

from raterlab import warehouse
from raterlab.ingest import NoPackets, check_file, ingest_file
from raterlab.ingest.report import markdown, report_dict
from raterlab.ingest.store import sha256_of
from raterlab.protocol import StudyError, load_study
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    validate = sub.add_parser(
        "validate", help="check a returned file against its study; writes nothing"
    )
    ingest = sub.add_parser("ingest", help="ingest one returned file now (outside the schedule)")
    for parser in (validate, ingest):
        parser.add_argument("path", type=Path, help="the returned CSV or JSONL file")
        parser.add_argument("--study", required=True, help="study name (a file in studies/)")
    validate.set_defaults(func=run_validate)
    ingest.set_defaults(func=run_ingest)


def _study(name: str):
    return load_study(studies_dir() / f"{name}.yaml")


def run_validate(args: argparse.Namespace) -> int:
    try:
        study = _study(args.study)
        home = Home.from_env()
        if not home.warehouse.exists():
            raise NoPackets(f"no warehouse at {home.warehouse}: run the annotation job first")
        with warehouse.connect(home.warehouse, read_only=True) as con:
            validation = check_file(study, args.path, con)
    except (StudyError, NoPackets, FileNotFoundError) as exc:
        print(f"raterlab validate: {exc}")
        return 2
    status = "would be accepted" if validation.ok else "would be rejected"
    print(
        markdown(
            report_dict(args.path.name, study.name, sha256_of(args.path), status, validation.issues)
        ),
        end="",
    )
    return 0 if validation.ok else 1


def run_ingest(args: argparse.Namespace) -> int:
    try:
        study = _study(args.study)
        home = Home.from_env()
        with warehouse.connect(home.warehouse) as con:
            result = ingest_file(study, args.path, home, con)
    except (StudyError, NoPackets, FileNotFoundError) as exc:
        print(f"raterlab ingest: {exc}")
        return 2
    print(f"{result.file}: {result.status}", end="")
    if result.status == "accepted":
        print(f", {result.n_labels} labels written ({result.n_warnings} warning(s))")
    elif result.status == "rejected":
        print(f", {result.n_errors} error(s); report: {result.report}")
    else:
        print(" (this exact file was ingested before; nothing to do)")
    for earlier in result.superseded:
        print(f"  replaces the labels from {earlier}")
    return 1 if result.status == "rejected" else 0
