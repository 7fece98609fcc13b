"""What every exporter reads: one study's gold tables, loaded once."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

import duckdb
import pandas as pd

from raterlab.comparison.conditions import condition_comparison, condition_means, unit_values
from raterlab.design.generations import record_of
from raterlab.design.kinds import ordinary
from raterlab.ingest.study_tables import counting_ratings
from raterlab.judges.store import read_calibration
from raterlab.protocol import Study
from raterlab.tables import names
from raterlab.tables.adjudication import ADJUDICATIONS
from raterlab.tables.agreement import AGREEMENT
from raterlab.tables.comparison import COMPARISON, MEANS
from raterlab.tables.consensus import CONSENSUS, ITEMS
from raterlab.tables.ingest import LABELS
from raterlab.warehouse import read_table

AGREEMENT_COLUMNS = names(AGREEMENT)[1:]

ItemRows = dict[str, list]
"""One item's consensus rows as columns (column name -> values, in table order)."""


@dataclass
class ExportBundle:
    study: Study
    items: pd.DataFrame
    """``gold.items``; each ``record`` as stored (JSON text) when read from the warehouse, or
    a dict: readers take one at a time with :func:`raterlab.design.generations.record_of`
    (a study's records decoded at once are most of an export's memory)."""
    consensus: pd.DataFrame
    adjudications: pd.DataFrame
    labels: pd.DataFrame
    """``gold.labels``, every kind."""
    agreement: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=AGREEMENT_COLUMNS))
    """``gold.agreement`` (empty before the ``agreement`` asset has run)."""
    judge_calibration: pd.DataFrame = field(default_factory=pd.DataFrame)
    """``gold.judge_calibration`` (empty for a study without judges)."""
    judge_weights: pd.DataFrame = field(default_factory=pd.DataFrame)
    """``gold.judge_weights``."""
    comparison_tables: tuple[pd.DataFrame, pd.DataFrame] | None = None
    """``gold.condition_comparison`` and ``gold.condition_means`` as the
    ``condition_comparison`` asset wrote them; ``None`` (a bundle not read from the
    warehouse): :meth:`comparison` computes them from the consensus."""
    run_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    exported_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def ratings(self) -> pd.DataFrame:
        """The ratings that count toward consensus."""
        return counting_ratings(self.study, self.labels)

    def comparison(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The study's comparison and means per condition: the gold tables when read from
        the warehouse (computing them again cost the export as much as the
        ``condition_comparison`` asset), else computed from :attr:`consensus`."""
        if self.comparison_tables is not None:
            return self.comparison_tables
        items = self.items.assign(record=[record_of(r) for r in self.items["record"]])
        units = unit_values(self.study, self.consensus, items)
        return (
            condition_comparison(self.study, units, self.ratings),
            condition_means(self.study, units),
        )

    @property
    def exported_at_iso(self) -> str:
        return self.exported_at.isoformat().replace("+00:00", "Z")

    def consensus_by_item(self) -> dict[tuple[str, str], ItemRows]:
        """Each (task, item)'s consensus rows, in one pass over the table: plain lists, not a
        DataFrame per item (which costs more than the export itself at 100,000 items)."""
        consensus = self.consensus
        wanted = ("field", "value", "value_num", "status", "confidence", "n_ratings", "rating_mean")
        columns = {c: consensus[c].tolist() for c in wanted if c in consensus}
        keys = zip(consensus["task"].tolist(), consensus["item_id"].tolist(), strict=True)
        out: dict[tuple[str, str], ItemRows] = {}
        for at, key in enumerate(keys):
            rows = out.get(key)
            if rows is None:
                rows = out[key] = {c: [] for c in columns}
            for column, values in columns.items():
                rows[column].append(values[at])
        return out

    def rating_rows(self) -> pd.DataFrame:
        """One row per counting rating (kind item, copy 0): ids, annotator, confidence,
        time spent, notes, round, and the values of every field as a dict."""
        labels = self.labels
        if labels.empty:
            return pd.DataFrame(
                columns=[
                    "rating_id",
                    "task",
                    "item_id",
                    "annotator_id",
                    "confidence",
                    "time_spent_s",
                    "notes",
                    "round",
                    "values",
                ]
            )
        rows = labels[ordinary(labels)]
        meta = rows.groupby("rating_id", sort=True)[
            ["task", "item_id", "annotator_id", "confidence", "time_spent_s", "notes", "round"]
        ].first()
        values = rows.groupby("rating_id", sort=True).apply(
            lambda g: dict(zip(g["field"], g["value"], strict=True)), include_groups=False
        )
        return meta.assign(values=values).reset_index()


def _frame(con, table: str, study: str, columns: list[str], json_columns=()) -> pd.DataFrame:
    frame = read_table(con, table, study, json_columns)
    return pd.DataFrame(columns=columns) if frame is None else frame


def load_bundle(
    con: duckdb.DuckDBPyConnection, study: Study, run_id: str | None = None
) -> ExportBundle:
    bundle = ExportBundle(
        study=study,
        items=_frame(con, "gold.items", study.name, names(ITEMS)[1:]),
        consensus=_frame(con, "gold.consensus", study.name, names(CONSENSUS)[1:]),
        adjudications=_frame(con, "gold.adjudications", study.name, names(ADJUDICATIONS)[1:]),
        labels=_frame(con, "gold.labels", study.name, names(LABELS)[1:]),
        agreement=_frame(con, AGREEMENT.name, study.name, AGREEMENT_COLUMNS),
    )
    comparison = read_table(con, COMPARISON.name, study.name)
    means = read_table(con, MEANS.name, study.name)
    if comparison is not None and means is not None:
        bundle.comparison_tables = (comparison, means)
    judges = read_calibration(con, study.name)
    bundle.judge_calibration, bundle.judge_weights = judges.calibration, judges.weights
    if run_id:
        bundle.run_id = run_id
    return bundle
