"""The one path every file the ingest takes in goes, whatever its kind
(:mod:`raterlab.ingest.kind`): archived under its content hash (and taken no further if
that content has an outcome already), read and validated, unblinded, then either quarantined
with its report or written, its outcome recorded in the same transaction as what it writes.

:func:`ingest_file` is the whole path for one file; :func:`prepare` and
:func:`commit_together` are its last two steps, which the batching of many files
(:mod:`raterlab.ingest.batches`) calls for files committed in one transaction.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from raterlab.ingest import store
from raterlab.ingest.issue_report import capped, report_dict, report_folder, write_report
from raterlab.ingest.kind import A, C, Kind, Prepared, R
from raterlab.ingest.receive import Received, add_version_issues, file_row, receive
from raterlab.ingest.returns import RETURNED
from raterlab.protocol import Study
from raterlab.settings import Home


def file_report(
    home: Home, study: str, received: Received, status: str, issues: pd.DataFrame, folder: str
) -> Path | None:
    """A rejected file is copied to ``quarantine/<study>/[<folder>/]<name>__<hash>/`` (the
    name shortened: :func:`~raterlab.ingest.issue_report.report_folder`) with its report; an
    accepted file with warnings gets its report under ``reports/ingest/<study>/[<folder>/]``.
    Returns the report's path (``None``: nothing to report)."""
    if status != "rejected" and issues.empty:
        return None
    base = home.quarantine if status == "rejected" else home.reports / "ingest"
    target = base / study / folder / report_folder(received.file, received.sha256)
    if status == "rejected":
        store.quarantine(received.archived, target, received.file)
    report = report_dict(received.file, study, received.sha256, status, issues)
    return write_report(target, report, issues)["markdown"]


def prepare(
    study: Study,
    kind: Kind[C, A, R],
    received: Received,
    check: C,
    accepted: A | None,
    home: Home,
) -> Prepared[C, A]:
    """A validated file with what it writes (``None``: rejected), its version's warning added
    and its report written (outside any transaction); its issues recorded at most so many
    per rule (:func:`~raterlab.ingest.issue_report.capped`), its counts of every issue."""
    status = "rejected" if accepted is None else "accepted"
    add_version_issues(received, check)
    report = file_report(home, study.name, received, status, check.issues, kind.folder)
    n_errors = int((check.issues["severity"] == "error").sum())
    outcome = {
        "file": received.file,
        "status": status,
        "n_rows": 0 if check.frame is None else len(check.frame),
        "n_errors": n_errors,
        "n_warnings": len(check.issues) - n_errors,
        "report": None if report is None else str(report),
        "ingested_at": received.received_at,
        "superseded_by": None,
    } | kind.outcome(received, check, accepted)
    entry = store.Entry(file_row(study, received), outcome, capped(check.issues))
    return Prepared(received, check, accepted, report, entry)


def commit_together(
    study: Study, kind: Kind[C, A, R], files: list[Prepared[C, A]], con: duckdb.DuckDBPyConnection
) -> list[R]:
    """Commit prepared ``files`` in one transaction (:func:`raterlab.ingest.store.commit_files`):
    their rows of ``raw.returned_files``, what the accepted ones write (``kind.apply``), their
    issues and outcomes. A content recorded before is ``kind.unchanged``. Several files give
    the outcome of committing them one by one only if no rating (or decision) is in two of
    them: the batching's groups (:mod:`raterlab.ingest.batches`) keep to that."""
    superseded: dict[int, list[str]] = {}

    def apply(con: duckdb.DuckDBPyConnection, fresh: list[int]) -> dict[int, dict]:
        accepted = [n for n in fresh if files[n].accepted is not None]
        if not accepted:
            return {}
        written = [(files[n].received, files[n].accepted) for n in accepted]
        applied = kind.apply(con, study, written)
        superseded.update((n, a.superseded) for n, a in zip(accepted, applied, strict=True))
        return {n: a.outcome for n, a in zip(accepted, applied, strict=True)}

    done = store.commit_files(con, kind.ledger, [p.entry for p in files], apply)
    return [
        kind.unchanged(p.received)
        if outcome is None
        else kind.result(p, outcome, superseded.get(n, []))
        for n, (p, outcome) in enumerate(zip(files, done, strict=True))
    ]


def commit(
    study: Study,
    received: Received,
    check: C,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    kind: Kind[C, A, R] = RETURNED,
) -> R:
    """Quarantine a rejected file with its report, or write an accepted one; either way the
    outcome is recorded in the same transaction as what it writes. Before, ``kind.start``
    (returns: the stored ratings follow the study file); after, ``kind.finish``."""
    kind.ensure_tables(con)
    kind.start(con, study)
    accepted = kind.accepted(study, [(received, check)])[0]
    prepared = prepare(study, kind, received, check, accepted, home)
    result = commit_together(study, kind, [prepared], con)[0]
    kind.finish(con, study)
    return result


def ingest_file(
    study: Study,
    path: Path,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    kind: Kind[C, A, R] = RETURNED,
) -> R:
    """Ingest one file of ``kind`` (a returned packet unless said): archive it, validate it,
    :func:`commit` it. Safe to repeat: the same content twice is ``kind.unchanged`` (but for
    ``kind.start``, which runs either way: the study file's check against the stored
    ratings)."""
    kind.ensure_tables(con)
    received = receive(study, path, home)
    if store.known_outcome(con, study.name, received.sha256, kind.ledger) is not None:
        kind.start(con, study)
        return kind.unchanged(received)
    return commit(study, received, kind.validate(study, received, con), home, con, kind)
