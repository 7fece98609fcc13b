"""The gold-table contract: a Great Expectations suite on a study's published gold tables.

Run as a blocking asset check on the ``consensus`` asset (so nothing is exported from tables
that break it), with its Data Docs written to ``$RATERLAB_HOME/reports/<study>/gold_contract/``.

On ``gold.consensus`` (joined, before validation, with the counts it must agree with):

- ``status`` is never null and one of the allowed statuses; ``method`` one of the methods;
- one row per task, item and field (``task, item_id, field`` unique);
- no missing consensus for resolved items: ``value`` is set wherever the status carries a
  value, and null where it is ``unresolved`` or ``excluded``;
- every field is a rating field of its task, and every value is inside the field's domain
  from the study (binary and categorical: the declared values; Likert: ``min..max``);
- ``confidence`` lies in [0, 1];
- counts consistent with the assignment: ``n_ratings`` equals the counting ratings in
  ``gold.labels``, never exceeds the copy-0 item rows assigned in the sealed key (plus
  imported ratings), a ``single`` has exactly one rating; every rated item has a row per
  rating field (the table's row count) and is in ``gold.items``.

On ``gold.items``: ``item_id`` unique, ``status`` allowed, ``n_resolved <= n_fields``.

Great Expectations is imported lazily (it is slow to import) with analytics off, in an
ephemeral context: nothing is written outside the report folder.
"""

from __future__ import annotations

import gc
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from raterlab.design.kinds import ordinary
from raterlab.design.rounds import latest_pilot_only
from raterlab.membership import is_in
from raterlab.protocol import CategoricalField, LikertField, Study
from raterlab.tables import names
from raterlab.tables.consensus import CONSENSUS, ITEMS, METHODS, RESOLVED, STATUSES

if TYPE_CHECKING:
    from great_expectations import ValidationDefinition
    from great_expectations.data_context import AbstractDataContext
    from great_expectations.datasource.fluent import PandasDatasource

ITEM_STATUSES = ("resolved", "unresolved", "excluded", "unrated")

ITEM_COLUMNS = tuple(n for n in names(ITEMS)[1:] if n != "record")
"""The columns of ``gold.items`` the contract reads: all but the records (JSON text, which it
does not check: about 100 MB at 100,000 items)."""

CONSENSUS_CHECKED = (
    "task",
    "item_id",
    "field",
    "value",
    "value_num",
    "status",
    "n_ratings",
    "method",
    "confidence",
)
"""The columns of ``gold.consensus`` the expectations read (their columns and conditions;
tested): Great Expectations filters the whole frame for each expectation with a condition,
so the others (the reasons' text among them) would be copied a hundred times a run."""

REPORT_FOLDER = "gold_contract"


@dataclass
class ContractResult:
    success: bool
    results: pd.DataFrame
    """One row per expectation: table, expectation, column, condition, success,
    unexpected_count, examples."""
    docs: Path | None
    """The Data Docs index page."""

    @property
    def failed(self) -> pd.DataFrame:
        return self.results[~self.results["success"]]


def contract_frame(
    study: Study,
    consensus: pd.DataFrame,
    items: pd.DataFrame,
    ratings: pd.DataFrame,
    key: pd.DataFrame,
) -> pd.DataFrame:
    """``gold.consensus`` (:data:`CONSENSUS_CHECKED`) with the columns its counts are
    checked against:
    ``n_counted`` (the counting ratings of gold.labels, ``ratings``: see
    :func:`raterlab.ingest.study_tables.counting_ratings`), ``n_assigned`` (copy-0 item rows in
    the sealed key plus imported ratings) and ``in_items`` (the item is in gold.items)."""
    frame = consensus[list(CONSENSUS_CHECKED)].copy()
    counted = ratings.groupby(["task", "item_id", "field"]).size().rename("n_counted")
    frame = frame.merge(counted.reset_index(), how="left", on=["task", "item_id", "field"])
    frame["n_counted"] = frame["n_counted"].fillna(0).astype("int64")
    assigned = pd.Series(dtype="int64")
    if len(key):
        rows = latest_pilot_only(key[ordinary(key)])
        assigned = rows.groupby("item_id").size()
    imported = (
        ratings[ratings["round"] == "import"].groupby(["item_id", "field"]).size()
        if len(ratings)
        else pd.Series(dtype="int64")
    )
    keys = pd.MultiIndex.from_arrays([frame["item_id"], frame["field"]])
    frame["n_assigned"] = (
        frame["item_id"].map(assigned).fillna(0).astype("int64").to_numpy()
        + imported.reindex(keys).fillna(0).astype("int64").to_numpy()
    )
    frame["in_items"] = is_in(frame["item_id"], items["item_id"]) if len(items) else False
    return frame


def expected_rows(study: Study, ratings: pd.DataFrame) -> int:
    """Rows gold.consensus must have: each rated item (of the counting ``ratings``) times its
    task's rating fields."""
    rated = ratings[["task", "item_id"]].drop_duplicates()
    return int(sum(len(study.tasks[t].rating_fields) for t in rated["task"]))


def _condition(**equals: str) -> str:
    return " & ".join(f'{k}=="{v}"' for k, v in equals.items())


def consensus_expectations(study: Study, n_rows: int) -> list:
    import great_expectations as gx

    e = gx.expectations
    resolved = "status.isin(" + repr(list(RESOLVED)) + ")"
    valueless = 'status.isin(["unresolved", "excluded"])'
    out = [
        e.ExpectColumnValuesToNotBeNull(column="status"),
        e.ExpectColumnValuesToBeInSet(column="status", value_set=list(STATUSES)),
        e.ExpectColumnValuesToBeInSet(column="method", value_set=list(METHODS)),
        e.ExpectCompoundColumnsToBeUnique(column_list=["task", "item_id", "field"]),
        e.ExpectColumnValuesToNotBeNull(
            column="value", row_condition=resolved, condition_parser="pandas"
        ),
        e.ExpectColumnValuesToBeNull(
            column="value", row_condition=valueless, condition_parser="pandas"
        ),
        e.ExpectColumnValuesToBeBetween(column="confidence", min_value=0, max_value=1),
        e.ExpectColumnPairValuesToBeEqual(column_A="n_ratings", column_B="n_counted"),
        e.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="n_assigned", column_B="n_ratings", or_equal=True
        ),
        e.ExpectColumnValuesToBeBetween(
            column="n_ratings",
            min_value=1,
            max_value=1,
            row_condition='status=="single"',
            condition_parser="pandas",
        ),
        e.ExpectColumnValuesToBeInSet(column="in_items", value_set=[True]),
        e.ExpectTableRowCountToEqual(value=n_rows),
    ]
    for task_name, task in study.tasks.items():
        out.append(
            e.ExpectColumnValuesToBeInSet(
                column="field",
                value_set=list(task.rating_fields),
                row_condition=_condition(task=task_name),
                condition_parser="pandas",
            )
        )
        for name in task.rating_fields:
            spec = task.fields[name]
            where = _condition(task=task_name, field=name)
            if isinstance(spec, LikertField):
                out.append(
                    e.ExpectColumnValuesToBeBetween(
                        column="value_num",
                        min_value=spec.min,
                        max_value=spec.max,
                        row_condition=where,
                        condition_parser="pandas",
                    )
                )
            else:
                domain = (
                    list(spec.labels)
                    if isinstance(spec, CategoricalField)
                    else [str(v) for v in spec.domain()]
                )
                out.append(
                    e.ExpectColumnValuesToBeInSet(
                        column="value",
                        value_set=domain,
                        row_condition=where,
                        condition_parser="pandas",
                    )
                )
    return out


def items_expectations() -> list:
    import great_expectations as gx

    e = gx.expectations
    return [
        e.ExpectColumnValuesToBeUnique(column="item_id"),
        e.ExpectColumnValuesToBeInSet(column="status", value_set=list(ITEM_STATUSES)),
        e.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="n_fields", column_B="n_resolved", or_equal=True
        ),
    ]


def _result_rows(table: str, validation) -> list[dict]:
    rows = []
    for r in validation.results:
        config = r.expectation_config
        kwargs = dict(config.kwargs)
        named = [kwargs[k] for k in ("column_A", "column_B") if k in kwargs]
        named += list(kwargs.get("column_list") or [])
        column = kwargs.get("column") or ", ".join(str(c) for c in named)
        result = r.result or {}
        examples = result.get("partial_unexpected_list") or []
        rows.append(
            {
                "table": table,
                "expectation": config.type,
                "column": column,
                "condition": kwargs.get("row_condition") or "",
                "success": bool(r.success),
                "unexpected_count": result.get("unexpected_count"),
                "examples": ", ".join(str(x) for x in examples[:5]),
            }
        )
    return rows


def _docs_site(report_dir: Path | None) -> tuple[dict, Path | None]:
    """The Data Docs site under ``report_dir`` (its folder emptied first, so no page of an
    earlier run stays) and its index page; no site and no page without ``report_dir``."""
    if report_dir is None:
        return {}, None
    docs_dir = report_dir / REPORT_FOLDER
    shutil.rmtree(docs_dir, ignore_errors=True)
    docs_dir.mkdir(parents=True, exist_ok=True)
    site = {
        "class_name": "SiteBuilder",
        "store_backend": {
            "class_name": "TupleFilesystemStoreBackend",
            "base_directory": str(docs_dir),
        },
        "site_index_builder": {
            "class_name": "DefaultSiteIndexBuilder",
            "view": _view("IndexPageView"),
        },
        "site_section_builders": {
            "expectations": {"view": _view("PageView")},
            "validations": {"view": _view("PageView")},
            "profiling": "None",  # no profiling results: a section with nothing to show
        },
    }
    return {"gold_contract": site}, docs_dir / "index.html"


def _view(name: str) -> dict[str, str]:
    """The Data Docs view ``name`` of :mod:`raterlab.gold.docs_views` (Great Expectations'
    own page views, their templates compiled once per process)."""
    return {"module_name": "raterlab.gold.docs_views", "class_name": name}


def _ephemeral_context(sites: dict) -> AbstractDataContext:
    """A Great Expectations context kept in memory, without analytics or progress bars, that
    writes nothing but the Data Docs ``sites``."""
    import great_expectations as gx
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(init_temp_docs_sites=False),
        data_docs_sites=sites,
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False),
    )
    return gx.get_context(project_config=config, mode="ephemeral")


def _validation(
    context: AbstractDataContext,
    source: PandasDatasource,
    suite_prefix: str,
    table: str,
    expectations: list,
) -> ValidationDefinition:
    """A suite of ``expectations`` for ``table`` on a whole-dataframe batch of ``source``,
    registered in ``context`` under ``<suite_prefix>.<table with _ for .>``."""
    import great_expectations as gx

    name = table.replace(".", "_")
    asset = source.add_dataframe_asset(name)
    batch = asset.add_batch_definition_whole_dataframe(f"{name}_all")
    # given whole: added one at a time, each expectation rewrote the stored suite
    suite = context.suites.add(
        gx.ExpectationSuite(name=f"{suite_prefix}.{name}", expectations=expectations)
    )
    return context.validation_definitions.add(
        gx.ValidationDefinition(name=f"{suite_prefix}.{name}", data=batch, suite=suite)
    )


def _run_validation(
    definition: ValidationDefinition, table: str, frame: pd.DataFrame
) -> tuple[list[dict], bool]:
    """Validate ``frame`` (its result kept in the context's store, for the Data Docs); one
    result row per expectation, and whether all passed."""
    result = definition.run(batch_parameters={"dataframe": frame.reset_index(drop=True)})
    return _result_rows(table, result), bool(result.success)


def validate_gold(
    study: Study,
    consensus: pd.DataFrame,
    items: pd.DataFrame,
    ratings: pd.DataFrame,
    key: pd.DataFrame,
    report_dir: Path | None = None,
) -> ContractResult:
    """Run the contract on one study's gold tables (``ratings``: the counting ratings,
    :func:`raterlab.ingest.study_tables.counting_ratings`; ``key``: the sealed key); write
    Data Docs under ``report_dir``."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    if consensus is None:
        consensus = pd.DataFrame(columns=names(CONSENSUS)[1:])
    if items is None:
        items = pd.DataFrame(columns=names(ITEMS)[1:])
    sites, docs = _docs_site(report_dir)
    context = _ephemeral_context(sites)
    try:
        return _validate(context, study, consensus, items, ratings, key, docs)
    finally:
        _forget(context)


def _forget(context: AbstractDataContext) -> None:
    """Drop Great Expectations' process-wide reference to ``context`` (``get_context`` keeps
    the last one in its ``project_manager``), and with it the frames validated: the contract's
    view of ``gold.consensus`` and ``gold.items`` stayed resident until the next contract ran,
    about 200 MB through a whole run at 100,000 items. The context's objects refer to each
    other, so they are collected here (10 ms in a run's process, whose code is frozen), not
    at some later full collection."""
    from great_expectations.data_context.data_context.context_factory import project_manager

    project_manager.set_project(None)
    for name in list(context.data_sources.all()):
        context.data_sources.delete(name)
    gc.collect()


def _validate(
    context: AbstractDataContext,
    study: Study,
    consensus: pd.DataFrame,
    items: pd.DataFrame,
    ratings: pd.DataFrame,
    key: pd.DataFrame,
    docs: Path | None,
) -> ContractResult:
    source = context.data_sources.add_pandas(f"gold_{study.name}")
    frames = {
        "gold.consensus": (
            contract_frame(study, consensus, items, ratings, key),
            consensus_expectations(study, expected_rows(study, ratings)),
        ),
        "gold.items": (items, items_expectations()),
    }
    definitions = [
        (table, frame, _validation(context, source, study.name, table, expectations))
        for table, (frame, expectations) in frames.items()
    ]
    rows = []
    success = True
    for table, frame, definition in definitions:
        table_rows, passed = _run_validation(definition, table, frame)
        rows += table_rows
        success = success and passed
    if docs is not None:
        context.build_data_docs()  # once for both tables (a checkpoint per table built twice)
    return ContractResult(success, pd.DataFrame(rows), docs)
