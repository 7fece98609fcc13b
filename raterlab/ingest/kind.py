"""What differs between the kinds of file the ingest takes in, which all go the one path of
:mod:`raterlab.ingest.one_file` (receive, validate, unblind, commit).

The kinds are returned packets (:data:`raterlab.ingest.returns.RETURNED`; Label Studio,
terminal and spreadsheet returns are returned packets), annotations imported from elsewhere
(:func:`raterlab.ingest.imports.imported`) and adjudication decisions
(:data:`raterlab.adjudication.ingest.DECISIONS`). Every kind shares the archive, the version
rule and its ``future_version`` warning, the quarantine and reports, the ledger row in
``raw.returned_files`` and the one transaction (:func:`raterlab.ingest.store.commit_files`); a
:class:`Kind` names what is its own: how a file is validated and unblinded, which of its rows
are accepted, what its outcome records, which tables its rows are written to and where its
rejected files are quarantined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import duckdb
import pandas as pd

from raterlab.ingest import store
from raterlab.ingest.issues import Checked
from raterlab.ingest.receive import Received
from raterlab.protocol import Study

C = TypeVar("C", bound=Checked)
A = TypeVar("A")
"""What a kind writes of an accepted file (the labels of a return, the decisions of a
decisions file)."""
R = TypeVar("R")


@dataclass
class Prepared(Generic[C, A]):
    """A validated file made ready to commit: what it writes (``None``: rejected), its report
    and its ledger entry."""

    received: Received
    check: C
    accepted: A | None
    report: Path | None
    entry: store.Entry


@dataclass(frozen=True)
class Applied:
    """What writing one accepted file did: columns to add to its outcome, and the files left
    with nothing current (marked superseded)."""

    outcome: dict
    superseded: list[str] = field(default_factory=list)


class Kind(Protocol[C, A, R]):
    """What the one path asks of a kind of file (see the module's docstring)."""

    ledger: store.Ledger
    """Where its outcomes and issues are recorded, and the gold tables it writes."""
    folder: str
    """Its folder under ``quarantine/<study>/`` and ``reports/ingest/<study>/`` (``""``: none)."""

    def ensure_tables(self, con: duckdb.DuckDBPyConnection) -> None:
        """Make the tables it records and writes (outside any transaction)."""

    def start(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """What runs before its files are committed, or a known one is skipped."""

    def finish(self, con: duckdb.DuckDBPyConnection, study: Study) -> None:
        """What runs after its files are committed."""

    def validate(self, study: Study, received: Received, con: duckdb.DuckDBPyConnection) -> C:
        """Read and validate the archived file, reporting under its own name."""

    def accepted(self, study: Study, files: list[tuple[Received, C]]) -> list[A | None]:
        """What each validated file writes, unblinded (``None``: reject the file)."""

    def outcome(self, received: Received, check: C, accepted: A | None) -> dict:
        """Its own columns of the file's outcome (the one path fills the shared ones)."""

    def apply(
        self, con: duckdb.DuckDBPyConnection, study: Study, files: list[tuple[Received, A]]
    ) -> list[Applied]:
        """Write the accepted files, inside the commit's transaction."""

    def result(self, prepared: Prepared[C, A], outcome: dict, superseded: list[str]) -> R:
        """What the caller is told of a committed file."""

    def unchanged(self, received: Received) -> R:
        """What the caller is told of a file whose content has an outcome already."""


def valid_rows(
    study: Study, errors: pd.DataFrame, rows: pd.DataFrame, row: str
) -> pd.DataFrame | None:
    """The rows to write of a file whose validation found ``errors``: all of them if none;
    else, if the study accepts the valid rows of a file (``ingest.accept_valid_rows``) and
    every error is about a row, the ``rows`` whose ``row`` column is no error's row;
    ``None``: none."""
    if errors.empty:
        return rows
    if not study.ingest.accept_valid_rows or errors["row"].isna().any():
        return None
    kept = rows[~rows[row].isin(errors["row"].dropna().astype(int))]
    return kept if len(kept) else None
