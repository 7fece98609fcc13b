"""Returned adjudication decisions: a kind of the ingest's one path
(:mod:`raterlab.ingest.one_file`), so a decisions file is archived, versioned, quarantined,
reported and committed exactly as a returned packet is.

What is its own (:data:`DECISIONS`): it is validated against the adjudication key
(:mod:`raterlab.adjudication.decision_checks`); its valid rows are accepted as a returned
file's are (:func:`raterlab.ingest.kind.valid_rows`); its decisions are written by the
ratings' version rule to ``gold.adjudications`` and ``gold.adjudication_history``
(:mod:`raterlab.adjudication.versions`); its outcome goes to ``staging.adjudication_files``
and its issues to ``staging.adjudication_issues``; a rejected file is copied to
``quarantine/<study>/adjudication/<name>__<hash>/`` with ``report.md``, ``report.json`` and
``issues.csv``. The file's row goes to ``raw.returned_files``, in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from raterlab.adjudication.adjudicator_packet import ADJUDICATION
from raterlab.adjudication.decision_checks import DecisionCheck, check_file
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.adjudication.versions import apply_decisions
from raterlab.ingest import store
from raterlab.ingest.audit import pending_files
from raterlab.ingest.kind import Applied, Prepared, valid_rows
from raterlab.ingest.one_file import ingest_file
from raterlab.ingest.receive import Received
from raterlab.protocol import Study
from raterlab.settings import Home
from raterlab.tables import adjudication as adjudication_tables
from raterlab.tables import ddl
from raterlab.tables.adjudication import ADJUDICATION_HISTORY, ADJUDICATIONS

LEDGER = store.Ledger(
    adjudication_tables.ADJUDICATION_FILES.name,
    adjudication_tables.ADJUDICATION_ISSUES.name,
    (ADJUDICATIONS.name, ADJUDICATION_HISTORY.name),
)


def inbox_dir(home: Home, study: str) -> Path:
    return home.inbox / study / ADJUDICATION


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    store.ensure_tables(con)
    ddl.ensure(con, *adjudication_tables.TABLES)


@dataclass
class AdjudicationResult:
    file: str
    sha256: str
    status: str
    """``accepted``, ``rejected`` or ``unchanged`` (this content was ingested before)."""
    n_decisions: int = 0
    n_errors: int = 0
    n_warnings: int = 0
    report: Path | None = None
    superseded: list[str] = field(default_factory=list)
    n_older: int = 0
    """Decisions older than the one in force: kept in history, not applied."""


def _raters(con: duckdb.DuckDBPyConnection, study: str) -> dict[str, set[str]]:
    """Who rated each item (the ``adjudicator_is_rater`` warning)."""
    try:
        rows = con.execute(
            "SELECT item_id, annotator_id FROM gold.ratings WHERE study = ? AND kind = 'item'",
            [study],
        ).fetchall()
    except duckdb.CatalogException:
        return {}
    out: dict[str, set[str]] = {}
    for item, annotator in rows:
        out.setdefault(item, set()).add(annotator)
    return out


@dataclass(frozen=True)
class Decisions:
    """The kind of a returned adjudication decisions file (see the module's docstring)."""

    ledger: store.Ledger = LEDGER
    folder: str = ADJUDICATION

    def ensure_tables(self, con: duckdb.DuckDBPyConnection) -> None:
        ensure_tables(con)

    def start(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """Nothing: decisions do not follow the study file's changes to stored ratings."""

    def finish(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """Nothing: decisions hold no ratings back."""

    def validate(
        self, study: Study, received: Received, con: duckdb.DuckDBPyConnection
    ) -> DecisionCheck:
        key = read_adjudication_key(con, study.name)
        raters = _raters(con, study.name)
        return check_file(study, received.archived, key, raters, received.file)

    def accepted(
        self, study: Study, files: list[tuple[Received, DecisionCheck]]
    ) -> list[pd.DataFrame | None]:
        """Each file's valid decisions (``None``: none, so the file is rejected)."""
        out = []
        for _, check in files:
            rows = valid_rows(study, check.errors, check.decisions, "source_row")
            out.append(None if rows is None or rows.empty else rows)
        return out

    def outcome(
        self, received: Received, check: DecisionCheck, accepted: pd.DataFrame | None
    ) -> dict:
        return {
            "archived_path": str(received.archived),
            "batches": ",".join(sorted(set(check.decisions.get("batch", [])))) or None,
            "n_decisions": 0 if accepted is None else len(accepted),
        }

    def apply(
        self,
        con: duckdb.DuckDBPyConnection,
        study: Study,
        files: list[tuple[Received, pd.DataFrame]],
    ) -> list[Applied]:
        applied = []
        for received, decisions in files:
            rows = decisions.assign(
                source_file=received.file,
                source_sha256=received.sha256,
                decided_at=received.received_at,
                version_at=received.version_at,
            )
            replaced, older = apply_decisions(con, study.name, received.sha256, rows)
            applied.append(Applied({"n_older": older}, replaced))
        return applied

    def result(
        self,
        prepared: Prepared[DecisionCheck, pd.DataFrame],
        outcome: dict,
        superseded: list[str],
    ) -> AdjudicationResult:
        received = prepared.received
        return AdjudicationResult(
            received.file,
            received.sha256,
            outcome["status"],
            int(outcome["n_decisions"]),
            int(outcome["n_errors"]),
            int(outcome["n_warnings"]),
            prepared.report,
            superseded,
            int(outcome.get("n_older") or 0),
        )

    def unchanged(self, received: Received) -> AdjudicationResult:
        return AdjudicationResult(received.file, received.sha256, "unchanged")


DECISIONS = Decisions()


def ingest_decisions(
    study: Study, path: Path, home: Home, con: duckdb.DuckDBPyConnection
) -> AdjudicationResult:
    """Ingest one returned decisions file by the one path
    (:func:`raterlab.ingest.one_file.ingest_file`); safe to repeat: the same content is a
    no-op."""
    return ingest_file(study, path, home, con, DECISIONS)


def ingest_inbox(
    study: Study, home: Home, con: duckdb.DuckDBPyConnection
) -> list[AdjudicationResult]:
    """Ingest every file in ``inbox/<study>/adjudication/`` not ingested before, oldest first."""
    return [
        ingest_decisions(study, p, home, con) for p in pending_files(inbox_dir(home, study.name))
    ]
