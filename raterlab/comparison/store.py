"""Computing a study's comparison from its gold tables, and writing
``gold.condition_comparison`` and ``gold.condition_means`` (typed, per study)."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.comparison.conditions import (
    condition_comparison,
    condition_means,
    record_keys,
    unit_values,
)
from raterlab.design.generations import decode_records
from raterlab.ingest.study_tables import counting_ratings
from raterlab.protocol import Study
from raterlab.tables.comparison import COMPARISON, MEANS
from raterlab.warehouse import read_table


def write_comparison(
    con: duckdb.DuckDBPyConnection, study: str, table: pd.DataFrame, means: pd.DataFrame
) -> None:
    """Replace the study's rows of both tables (created typed from their declarations), in
    one transaction."""
    warehouse.replace_study_tables(con, study, {COMPARISON.name: table, MEANS.name: means})


def compare_study(
    con: duckdb.DuckDBPyConnection, study: Study
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The study's comparison and means from its gold tables (empty ones before consensus)."""
    gold = read_table(con, "gold.consensus", study.name)
    items = read_table(con, "gold.items", study.name)
    labels = read_table(con, "gold.labels", study.name)
    if gold is None or items is None or labels is None or gold.empty:
        gold = pd.DataFrame(columns=["task", "item_id", "field", "value_num"])
        items = pd.DataFrame(columns=["item_id", "task", "tier", "record"])
        ratings = pd.DataFrame(columns=["task", "item_id", "annotator_id", "field", "value_num"])
    else:
        ratings = counting_ratings(study, labels)
        items["record"] = decode_records(items["record"], record_keys(study))
    units = unit_values(study, gold, items)
    return condition_comparison(study, units, ratings), condition_means(study, units)
