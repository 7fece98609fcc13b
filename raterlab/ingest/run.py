"""Ingesting one returned file end to end: archive, read, validate, then either quarantine
with a report or unblind and write, in one transaction. Also the dry run (``validate``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.ingest import store
from raterlab.ingest.labels import to_labels
from raterlab.ingest.read import ROW
from raterlab.ingest.report import report_dict, write_report
from raterlab.ingest.validate import Validation, validate_file
from raterlab.protocol import Study
from raterlab.settings import Home


class NoPackets(RuntimeError):
    """Returned files cannot be read before the study's packets (and sealed key) exist."""


@dataclass
class IngestResult:
    file: str
    sha256: str
    status: str
    """``accepted``, ``rejected``, or ``unchanged`` (this exact content was ingested before)."""
    validation: Validation | None = None
    n_labels: int = 0
    report: Path | None = None
    superseded: list[str] = field(default_factory=list)

    @property
    def n_errors(self) -> int:
        return 0 if self.validation is None else len(self.validation.errors)

    @property
    def n_warnings(self) -> int:
        return 0 if self.validation is None else len(self.validation.warnings)


KEY_COLUMNS = "token, annotator_id, round, batch, task, item_id, kind, copy"
"""What validation and unblinding read of the sealed key."""


def study_context(con: duckdb.DuckDBPyConnection, study: Study) -> tuple[pd.DataFrame, dict]:
    """The sealed key and the item records, which validation and unblinding need."""
    key = warehouse.read_study_rows(con, "staging.blinding_key", study.name, KEY_COLUMNS)
    if key.empty:
        raise NoPackets(
            f"no packets have been issued for study {study.name!r}: run the annotation job first"
        )
    generations = warehouse.decode_json(
        warehouse.read_study_rows(con, "raw.generations", study.name, "item_id, record"),
        ("record",),
    )
    return key, dict(zip(generations["item_id"], generations["record"], strict=True))


def check_file(study: Study, path: Path, con: duckdb.DuckDBPyConnection) -> Validation:
    """Validate ``path`` without writing anything (``raterlab validate``)."""
    key, records = study_context(con, study)
    return validate_file(study, path, key, records)


def _accepted_rows(study: Study, validation: Validation) -> pd.DataFrame | None:
    """The rows to write: all of them, the valid ones (if the study allows), or none."""
    if validation.ok:
        return validation.rows
    errors = validation.errors
    if not study.ingest.accept_valid_rows or validation.task is None or errors["row"].isna().any():
        return None
    return validation.rows[~validation.rows[ROW].isin(errors["row"].dropna().astype(int))]


@dataclass
class Received:
    """A returned file, archived under its content hash before anything parses it."""

    path: Path
    sha256: str
    archived: Path
    received_at: datetime
    known: bool
    """This exact content was ingested (accepted or rejected) before."""

    @property
    def file(self) -> str:
        return self.path.name


def receive(study: Study, path: Path, home: Home, con: duckdb.DuckDBPyConnection) -> Received:
    """Archive ``path`` by content hash; note whether that content was seen before."""
    path = Path(path)
    sha = store.sha256_of(path)
    store.ensure_tables(con)
    known = store.known_outcome(con, study.name, sha) is not None
    archived = store.archive(path, home.archive / study.name, sha)
    return Received(path, sha, archived, datetime.now(UTC), known)


def validate_received(
    study: Study, received: Received, con: duckdb.DuckDBPyConnection
) -> Validation:
    """Validate the archived copy, reporting under the file's own name."""
    key, records = study_context(con, study)
    validation = validate_file(study, received.archived, key, records)
    validation.file = received.file
    validation.issues["file"] = received.file
    return validation


def commit(
    study: Study,
    received: Received,
    validation: Validation,
    home: Home,
    con: duckdb.DuckDBPyConnection,
) -> IngestResult:
    """Quarantine a rejected file with its report, or unblind and write an accepted one;
    either way the outcome is recorded in the same transaction as the labels."""
    rows = _accepted_rows(study, validation)
    status = "rejected" if rows is None or rows.empty else "accepted"
    report = report_dict(received.file, study.name, received.sha256, status, validation.issues)
    base = home.quarantine if status == "rejected" else home.reports / "ingest"
    folder = base / study.name / f"{received.path.stem}__{received.sha256[:8]}"
    report_path = None
    if status == "rejected":
        store.quarantine(received.archived, folder, received.file)
    if status == "rejected" or not validation.issues.empty:
        report_path = write_report(folder, report, validation.issues)["markdown"]
    labels = None
    if status == "accepted":
        source = {
            "source_file": received.file,
            "source_sha256": received.sha256,
            "ingested_at": received.received_at,
        }
        labels = to_labels(study, validation.task, validation.frame, rows, source)
    packets = (
        []
        if rows is None
        else sorted(
            "/".join(p)
            for p in rows[["annotator_id", "batch", "task"]]
            .drop_duplicates()
            .itertuples(index=False)
        )
    )
    file_row = {
        "study": study.name,
        "sha256": received.sha256,
        "file": received.file,
        "archived_path": str(received.archived),
        "size_bytes": received.archived.stat().st_size,
        "received_at": received.received_at,
    }
    outcome = {
        "file": received.file,
        "task": validation.task,
        "status": status,
        "n_rows": 0 if validation.frame is None else len(validation.frame),
        "n_labels": 0 if labels is None else len(labels),
        "n_errors": len(validation.errors),
        "n_warnings": len(validation.warnings),
        "packets": packets,
        "report": None if report_path is None else str(report_path),
        "ingested_at": received.received_at,
        "superseded_by": None,
    }
    superseded = store.commit_ingest(con, file_row, outcome, validation.issues, labels)
    return IngestResult(
        received.file,
        received.sha256,
        status,
        validation,
        outcome["n_labels"],
        report_path,
        superseded,
    )


def ingest_file(
    study: Study, path: Path, home: Home, con: duckdb.DuckDBPyConnection
) -> IngestResult:
    """Ingest one returned file; safe to repeat (the same content twice is a no-op)."""
    received = receive(study, path, home, con)
    if received.known:
        return IngestResult(received.file, received.sha256, "unchanged")
    return commit(study, received, validate_received(study, received, con), home, con)
