"""Reading a study's tables and writing ``reports/<study>/index.html``."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from raterlab import warehouse
from raterlab.csvsafe import write_csv
from raterlab.protocol import Study
from raterlab.report.html import page
from raterlab.report.pairwise import TABLES as PAIRWISE_TABLES
from raterlab.report.sections import PLOTS, ReportInputs, build_sections
from raterlab.warehouse import read_table

READ = (
    "staging.routed_items",
    "staging.assignments",
    "staging.planned_precision",
    "staging.pilot_gate",
    "gold.pilot_gates",
    "gold.agreement",
    "staging.agreement_thresholds",
    "gold.rater_quality",
    "staging.adjudication_queue",
    "gold.adjudications",
    "gold.consensus",
    "gold.condition_comparison",
    "gold.condition_means",
    "gold.judge_calibration",
    "gold.judge_verdicts",
    "gold.judge_robustness",
    "staging.gold_contract",
    "staging.ingests",
    "staging.ingest_issues",
    "gold.agreement_pairwise",
    "gold.metrics",
    "gold.tier_costs",
    "gold.promotions",
    *PAIRWISE_TABLES,
)
"""Tables the sections read (besides ``raw.generations``)."""

NOT_SHOWN = (
    "gold.labels",
    "gold.ratings",
    "gold.rating_values",
    "gold.items",
    "gold.agreement_pairwise",
    "gold.agreement_matrices",
    "gold.rater_item_flags",
)
"""Row-level gold tables: too long for a report, and summarised by its sections."""

MAX_EXTRA_ROWS = 200


def other_gold_tables(con: duckdb.DuckDBPyConnection, study: str) -> dict:
    """Gold base tables with a ``study`` column that no section reads, with the study's rows
    (first :data:`MAX_EXTRA_ROWS`), where it has any."""
    found = con.execute(
        "SELECT t.table_name FROM information_schema.tables t "
        "JOIN information_schema.columns c USING (table_catalog, table_schema, table_name) "
        "WHERE t.table_catalog = current_database() AND t.table_schema = 'gold' "
        "AND t.table_type = 'BASE TABLE' "
        "AND c.column_name = 'study' ORDER BY 1"
    ).fetchall()
    out = {}
    for (name,) in found:
        table = f"gold.{name}"
        if table in READ or table in NOT_SHOWN:
            continue
        frame = read_table(con, table, study)
        if frame is not None and len(frame):
            out[table] = frame.head(MAX_EXTRA_ROWS)
    return out


def load_inputs(con: duckdb.DuckDBPyConnection, study: Study, reports: Path) -> ReportInputs:
    """Everything the report shows for ``study``; ``reports``: ``$RATERLAB_HOME/reports``."""
    tables = {name: read_table(con, name, study.name) for name in READ}
    tables["raw.generations"] = warehouse.read_study_rows(
        con, "raw.generations", study.name, "task, role"
    )
    folder = reports / study.name
    plots = {key: folder / name for key, name in PLOTS.items() if (folder / name).is_file()}
    return ReportInputs(study, tables, plots, other_gold_tables(con, study.name))


def render(inputs: ReportInputs, generated_at: datetime | None = None) -> str:
    """The report as one HTML document."""
    study = inputs.study
    when = (generated_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    subtitle = f"Study {study.name}, version {study.version}. Report written {when}."
    if study.description:
        subtitle = f"{study.description.strip()} {subtitle}"
    return page(study.title, subtitle, build_sections(inputs))


def write_report(con: duckdb.DuckDBPyConnection, study: Study, reports: Path) -> Path:
    """Write ``reports/<study>/index.html`` (replaced atomically) and return its path, with
    the tables the page folds away as CSV files beside it (``tables/<name>.csv``)."""
    return write_page(load_inputs(con, study, reports), reports)


def write_page(inputs: ReportInputs, reports: Path) -> Path:
    """:func:`write_report` of inputs already read (:func:`load_inputs`), for a caller that
    reads them for something else too."""
    target = reports / inputs.study.name / "index.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = render(inputs)
    for relative, frame in inputs.attachments.items():
        write_csv(frame, target.parent / relative)
    partial = target.with_suffix(".html.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, target)
    return target
