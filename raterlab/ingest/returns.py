"""The kind of file most of the ingest takes in: a returned packet (CSV, JSONL or a workbook;
Label Studio and terminal returns are written as one), validated against the study and its
sealed key, unblinded into ratings, and written by the ratings' version rule
(:mod:`raterlab.ingest.ratings`). Also its dry run (:func:`preview`, ``raterlab validate``),
which says exactly what its ingest would do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from raterlab.files import sha256_of
from raterlab.ingest import changes, ratings, store
from raterlab.ingest.context import Context, study_context
from raterlab.ingest.kind import Applied, Prepared, valid_rows
from raterlab.ingest.labels import Labels, WideLabels, labels_of
from raterlab.ingest.lean import lean_validation
from raterlab.ingest.read import ROW
from raterlab.ingest.receive import Received, add_version_issues, received_now, source_of
from raterlab.ingest.validate import Validation, validate_file
from raterlab.protocol import Study


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
    changes: dict[str, int] = field(default_factory=dict)
    """Ratings per change (``new``, ``replaced``, ``unchanged``, ``older``); see
    :mod:`raterlab.ingest.ratings`."""

    @property
    def n_errors(self) -> int:
        return 0 if self.validation is None else len(self.validation.errors)

    @property
    def n_warnings(self) -> int:
        return 0 if self.validation is None else len(self.validation.warnings)


def accepted_rows(study: Study, validation: Validation) -> pd.DataFrame | None:
    """The rows to write: all of them, the valid ones (if the study allows), or none
    (:func:`raterlab.ingest.kind.valid_rows`)."""
    return valid_rows(study, validation.errors, validation.rows, ROW)


Validated = tuple[Received, Validation]
"""A received file and its validation."""


def returned_labels(study: Study, files: list[Validated]) -> list[Labels | WideLabels | None]:
    """The labels of validated returned files (``None``: reject the file), those of one task
    made together (:func:`raterlab.ingest.labels.labels_of`); a file the lean path found
    clean has its labels in DuckDB already (:attr:`Validation.lean`)."""
    by_task: dict[str, list[tuple[int, tuple]]] = {}
    done_lean: dict[int, WideLabels] = {}
    for n, (received, validation) in enumerate(files):
        if validation.lean is not None:  # clean: its labels are in DuckDB already
            done_lean[n] = validation.lean
            continue
        rows = accepted_rows(study, validation)
        if rows is not None:
            part = (validation.frame, rows, source_of(received), validation.typed)
            validation.typed = None  # handed over: not kept through the write
            by_task.setdefault(validation.task, []).append((n, part))
    done: dict[int, Labels | WideLabels] = dict(done_lean)
    for task, members in by_task.items():
        made = labels_of(study, task, [part for _, part in members])
        done.update((n, labels) for (n, _), labels in zip(members, made, strict=True))
    return [done.get(n) for n in range(len(files))]


def validate_received(
    study: Study,
    received: Received,
    con: duckdb.DuckDBPyConnection,
    context: Context | None = None,
) -> Validation:
    """Validate the archived copy, reporting under the file's own name. A big clean CSV file
    is read and checked inside DuckDB (:func:`raterlab.ingest.lean.lean_validation`); any
    other goes the full way. ``context`` is :func:`~raterlab.ingest.context.study_context`,
    read here if not given (and needed): a caller validating many files reads it once (it
    holds every token of the study, so reading it per file would cost files x items)."""
    lean = lean_validation(study, received, con)
    if lean is not None:
        return lean
    return validate_file(
        study, received.archived, context or study_context(con, study), received.file
    )


@dataclass(frozen=True)
class Ratings:
    """A kind whose accepted files become ratings in ``gold.ratings`` (recorded in
    ``staging.ingests``): returned packets (:data:`RETURNED`), and imports, which differ in
    how a file is read, validated and unblinded (``validate_with`` and ``labels_from``)."""

    validate_with: Callable[[Study, Received, duckdb.DuckDBPyConnection], Validation]
    labels_from: Callable[[Study, list[Validated]], list[Labels | WideLabels | None]]
    ledger: store.Ledger = store.RETURNS
    folder: str = ""

    def ensure_tables(self, con: duckdb.DuckDBPyConnection) -> None:
        store.ensure_tables(con)

    def start(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """The stored ratings brought in line with the study file
        (:func:`raterlab.ingest.changes.follow_study`: a dropped field refuses the ingest)."""
        changes.follow_study(con, study)

    def finish(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """Held ratings the files replaced are released."""
        changes.release_replaced(con, study.name)

    def validate(
        self, study: Study, received: Received, con: duckdb.DuckDBPyConnection
    ) -> Validation:
        return self.validate_with(study, received, con)

    def accepted(self, study: Study, files: list[Validated]) -> list[Labels | WideLabels | None]:
        return self.labels_from(study, files)

    def outcome(
        self, received: Received, check: Validation, accepted: Labels | WideLabels | None
    ) -> dict:
        packets = [] if accepted is None else sorted("/".join(p) for p in accepted.packets())
        return {"task": check.task, "n_labels": 0, "packets": packets, "n_rows": check.n_rows}

    def apply(
        self,
        con: duckdb.DuckDBPyConnection,
        study: Study,
        files: list[tuple[Received, Labels | WideLabels]],
    ) -> list[Applied]:
        """One plan and one insert for all the files' ratings
        (:func:`raterlab.ingest.ratings.apply_returns`); the files whose ratings the files
        replaced all of are marked superseded."""
        returns = [ratings.Return(labels, r.version_at, r.received_at) for r, labels in files]
        counts = ratings.apply_returns(con, study.name, returns)
        replacing = [r.sha256 for (r, _), c in zip(files, counts, strict=True) if c["replaced"]]
        superseded = ratings.mark_superseded(con, study.name, replacing) if replacing else {}
        return [
            Applied(
                {f"n_{c}": k for c, k in count.items() if c != "labels"}
                | {"n_labels": count["labels"]},
                superseded.get(received.sha256, []),
            )
            for (received, _), count in zip(files, counts, strict=True)
        ]

    def result(
        self, prepared: Prepared[Validation, Labels], outcome: dict, superseded: list[str]
    ) -> IngestResult:
        received, status = prepared.received, outcome["status"]
        changes = {c: int(outcome.get(f"n_{c}") or 0) for c in ratings.CHANGES}
        return IngestResult(
            received.file,
            received.sha256,
            status,
            prepared.check,
            int(outcome["n_labels"]),
            prepared.report,
            superseded,
            changes if status == "accepted" else {},
        )

    def unchanged(self, received: Received) -> IngestResult:
        return IngestResult(received.file, received.sha256, "unchanged")


RETURNED = Ratings(validate_received, returned_labels)
"""Returned packets: validated against the sealed key, unblinded by it."""


@dataclass
class Preview:
    """What ingesting a file would do: ``status`` (``accepted``, ``rejected``, ``unchanged``)
    and, if accepted, the count of its ratings per change."""

    status: str
    validation: Validation | None
    changes: dict[str, int]


def preview(study: Study, path: Path, con: duckdb.DuckDBPyConnection) -> Preview:
    """The dry run of :func:`raterlab.ingest.one_file.ingest_file` of a returned file:
    validates and compares with the warehouse, writes nothing (``raterlab validate``)."""
    path = Path(path)
    sha = sha256_of(path)
    if store.known_outcome(con, study.name, sha) is not None:
        return Preview("unchanged", None, {})
    received = received_now(path, sha, path)
    validation = validate_received(study, received, con)
    add_version_issues(received, validation)
    labels = returned_labels(study, [(received, validation)])[0]
    if labels is None:
        return Preview("rejected", validation, {})
    planned = ratings.plan(
        con, study.name, [ratings.Return(labels, received.version_at, received.received_at)]
    )
    return Preview("accepted", validation, ratings.count_changes(planned))
