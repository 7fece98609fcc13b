"""``gold.metrics``: the study's metric families, one row per family, metric and system
(declared in :mod:`raterlab.tables.metrics`)."""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.design.generations import decode_records
from raterlab.metrics.families import record_keys
from raterlab.protocol import Study
from raterlab.tables import names
from raterlab.tables.consensus import CONSENSUS, ITEMS
from raterlab.tables.metrics import METRICS


def write_metrics(con: duckdb.DuckDBPyConnection, study: str, frame: pd.DataFrame) -> int:
    """Replace ``study``'s rows of ``gold.metrics`` (typed table, one transaction)."""
    return warehouse.replace_study_rows(con, METRICS.name, study, frame)


def read_inputs(con: duckdb.DuckDBPyConnection, study: Study) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What :func:`raterlab.metrics.families.compute_metrics` reads: ``gold.items``, each
    record decoded for the keys the metrics read (:func:`raterlab.metrics.families.
    record_keys`), and ``gold.consensus``; empty frames before consensus, and for a study
    without metrics (nothing read)."""
    if study.metrics is None:
        return pd.DataFrame(columns=names(ITEMS)[1:]), pd.DataFrame(columns=names(CONSENSUS)[1:])
    items = warehouse.read_table(con, ITEMS.name, study.name)
    consensus = warehouse.read_table(con, CONSENSUS.name, study.name)
    if items is None or consensus is None:
        return pd.DataFrame(columns=names(ITEMS)[1:]), pd.DataFrame(columns=names(CONSENSUS)[1:])
    items["record"] = decode_records(items["record"], record_keys(study))
    return items, consensus
