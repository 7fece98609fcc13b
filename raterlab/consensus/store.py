"""Writing ``gold.items`` and ``gold.consensus`` (one transaction per study) and the views
researchers query.

Views (all studies):

``gold.consensus_items``         ``gold.consensus`` with the item's tier, condition, model,
                                 category and stratum.
``gold.consensus_by_condition``  per study, task, field, category and condition: items,
                                 resolved items, mean consensus value (the share of 1s for a
                                 binary field), its standard deviation, the modal label, and
                                 how many were adjudicated.
``gold.<study>__<task>__consensus``  per study and task, wide: one row per item, a column per
                                 rating field (its consensus value; numeric for binary and
                                 Likert) and ``<field>__status``.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.protocol import CategoricalField, Study
from raterlab.protocol.names import VIEW_NAME_PART
from raterlab.tables import ddl, names
from raterlab.tables.adjudication import ADJUDICATION_HISTORY, ADJUDICATIONS
from raterlab.tables.consensus import CONSENSUS, ITEMS

CONSENSUS_ITEMS_VIEW = """
    CREATE OR REPLACE VIEW gold.consensus_items AS
    SELECT c.*, i.tier, i.condition, i.model, i.category, i.stratum
    FROM gold.consensus c JOIN gold.items i USING (study, task, item_id)"""

BY_CONDITION_VIEW = """
    CREATE OR REPLACE VIEW gold.consensus_by_condition AS
    SELECT study, task, field, category, condition,
           count(*) AS n_items,
           count(value) AS n_resolved,
           avg(value_num) AS mean_value,
           stddev_samp(value_num) AS sd_value,
           mode(value) AS modal_value,
           count(*) FILTER (WHERE status = 'adjudicated') AS n_adjudicated
    FROM gold.consensus_items
    GROUP BY study, task, field, category, condition"""

CONDITION_QUERY = """
PIVOT (
    SELECT category, condition, mean_value
    FROM gold.consensus_by_condition
    WHERE study = 'correctness_ab' AND field = 'correctness'
) ON condition USING first(mean_value)
ORDER BY category"""
"""The documented query: mean consensus correctness of condition A vs B, per category."""


def _identifier(name: str) -> str:
    if not VIEW_NAME_PART.fullmatch(name):
        raise ValueError(f"{name!r} is not a plain identifier; it cannot name a view column")
    return name


def wide_view_name(study: str, task: str) -> str:
    return f'gold."{_identifier(study)}__{_identifier(task)}__consensus"'


def _wide_view_sql(study: Study, task: str) -> str:
    columns = []
    for field, spec in study.tasks[task].fields.items():
        if not spec.is_rating:
            continue
        f = _identifier(field)
        value = "value" if isinstance(spec, CategoricalField) else "value_num"
        columns.append(f"max(c.{value}) FILTER (WHERE c.field = '{f}') AS \"{f}\"")
        columns.append(f"max(c.status) FILTER (WHERE c.field = '{f}') AS \"{f}__status\"")
    return f"""
        CREATE OR REPLACE VIEW {wide_view_name(study.name, task)} AS
        SELECT i.item_id, i.tier, i.condition, i.model, i.category, i.status AS item_status,
               {", ".join(columns)}
        FROM gold.items i LEFT JOIN gold.consensus c USING (study, task, item_id)
        WHERE i.study = '{_identifier(study.name)}' AND i.task = '{_identifier(task)}'
        GROUP BY i.item_id, i.tier, i.condition, i.model, i.category, i.status"""


def create_views(con: duckdb.DuckDBPyConnection, study: Study) -> list[str]:
    """Create (or replace) the shared views and the study's wide views; returns their names."""
    ddl.ensure(con, ITEMS, CONSENSUS, ADJUDICATIONS, ADJUDICATION_HISTORY)
    con.execute(CONSENSUS_ITEMS_VIEW)
    con.execute(BY_CONDITION_VIEW)
    views = ["gold.consensus_items", "gold.consensus_by_condition"]
    for task in study.tasks:
        con.execute(_wide_view_sql(study, task))
        views.append(wide_view_name(study.name, task))
    return views


def _prepared(frame: pd.DataFrame, columns: list[str], study: str) -> pd.DataFrame:
    out = warehouse.jsonable(frame)
    out.insert(0, "study", study)
    return out[columns]


def replace_rows(
    con: duckdb.DuckDBPyConnection, study: str, tables: dict[str, pd.DataFrame]
) -> dict[str, int]:
    """Replace ``study``'s rows of each table in ``tables`` (``schema.name`` -> frame without
    ``study``), all in one transaction: a failure leaves every table as it was."""
    ddl.ensure(con, ITEMS, CONSENSUS, ADJUDICATIONS, ADJUDICATION_HISTORY)
    columns = {"gold.items": names(ITEMS), "gold.consensus": names(CONSENSUS)}
    counts = {}
    con.execute("BEGIN TRANSACTION")
    try:
        for table, frame in tables.items():
            cols = columns.get(table) or ["study", *frame.columns]
            data = _prepared(frame, cols, study)
            con.execute(f"DELETE FROM {table} WHERE study = ?", [study])
            if len(data):
                con.register("_rows", data)
                try:
                    con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _rows")
                finally:
                    con.unregister("_rows")
            counts[table] = len(data)
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return counts
