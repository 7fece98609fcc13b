"""The Pandera schema of a returned file, and the row failures it finds.

:func:`task_schema` makes each rule of :func:`raterlab.ingest.rules.task_rules` a check of
a ``pandera.polars`` ``DataFrameSchema``: one column (text, not null) per column a rule
reports, and on it those rules, in rule order. :func:`failures` validates a
frame with that schema in Pandera's lazy mode and turns its failure cases (one per failing
row and check: the column, the check's position on that column, the row's index and the
cell's value) back into rules. This is the only place where a file's row rules run: returns,
imports, adjudication decisions, the annotation tool's answers and the audit of accepted
data all call :func:`failures`.

Why the Polars backend: each check is a Polars expression evaluated on whole columns (Pandera
collects each check's result on its own), and Pandera gathers a check's failure cases with
one vectorised filter of the failing rows, so a file where every row breaks a rule is
summarised in about the time a valid one is checked. The pandas backend, with the same rules
as vectorised pandas checks, took about 60 s per million broken rows to build its failure
cases (benchmarks/README.md, "Ingest").
"""

from __future__ import annotations

import pandas as pd
import pandera.polars as pa
import polars as pl
from pandera.errors import SchemaErrors

from raterlab.ingest.cells import root_names, typed_frame
from raterlab.ingest.rules import TIME_COLUMN, Rule, task_rules
from raterlab.protocol import Study

FAILURE_COLUMNS = ("position", "column", "rule", "value", "message")


def _check(rule: Rule) -> pa.Check:
    return pa.Check(
        lambda data, valid=rule.valid: data.lazyframe.select(valid),
        name=rule.name,
        error=rule.message,
        ignore_na=False,
    )


def _by_column(rules: list[Rule]) -> dict[str, list[Rule]]:
    """The rules grouped by the column they report, in rule order (the checks' order)."""
    columns: dict[str, list[Rule]] = {}
    for rule in rules:
        columns.setdefault(rule.column, []).append(rule)
    return columns


def rules_schema(
    rules: list[Rule], name: str, optional: frozenset[str] = frozenset()
) -> pa.DataFrameSchema:
    """A schema whose columns are the columns ``rules`` report, each with its rules as
    checks; a column in ``optional`` may be absent (its rules then do not run)."""
    return pa.DataFrameSchema(
        {
            column: pa.Column(
                str,
                nullable=False,
                required=column not in optional,
                checks=[_check(r) for r in column_rules],
            )
            for column, column_rules in _by_column(rules).items()
        },
        strict=False,
        name=name,
    )


def optional_columns(study: Study) -> frozenset[str]:
    """Template columns a returned file may leave out (the time column, when optional)."""
    return frozenset({TIME_COLUMN} if study.packet.time_spent == "optional" else ())


def task_schema(study: Study, task_name: str) -> pa.DataFrameSchema:
    """The Pandera schema of a task's returned file (text cells, as read from the file, with
    the item and time columns under their internal names)."""
    return rules_schema(
        task_rules(study, task_name), f"{study.name}.{task_name}", optional_columns(study)
    )


def failures(
    frame: pd.DataFrame,
    rules: list[Rule],
    name: str = "rows",
    optional: frozenset[str] = frozenset(),
) -> pd.DataFrame:
    """Every (row, rule) that fails, by validating ``frame`` (text cells) with
    :func:`rules_schema` in lazy mode: :data:`FAILURE_COLUMNS`, ``position`` being the row's
    position in ``frame``; sorted by rule, then row, as ``rules`` lists them."""
    return typed_failures(frame, rules, name, optional)[0]


def typed_failures(
    frame: pd.DataFrame,
    rules: list[Rule],
    name: str = "rows",
    optional: frozenset[str] = frozenset(),
    also: frozenset[str] = frozenset(),
) -> tuple[pd.DataFrame, pl.DataFrame]:
    """:func:`failures`, and the typed cells the schema validated
    (:func:`raterlab.ingest.cells.typed_frame`), with those named in ``also`` besides: a
    caller that parses the same cells again (unblinding) takes them from there."""
    schema = rules_schema(rules, name, optional)
    data = typed_frame(frame, {*schema.columns, *root_names(*(r.valid for r in rules)), *also})
    try:
        schema.validate(data, lazy=True)
    except SchemaErrors as exc:
        return _to_rules(exc.failure_cases, rules), data
    return pd.DataFrame(columns=list(FAILURE_COLUMNS)), data


def _to_rules(cases: pl.DataFrame, rules: list[Rule]) -> pd.DataFrame:
    """Pandera's failure cases as rule failures: a case's column and check number name the
    rule (see :func:`rules_schema`). A failure that is not a rule's (a column missing, a
    value that is not text) is kept under Pandera's own check name."""
    rank = {id(r): i for i, r in enumerate(rules)}
    checks = [
        (column, number, rank[id(rule)], rule.name, rule.message)
        for column, column_rules in _by_column(rules).items()
        for number, rule in enumerate(column_rules)
    ]
    lookup = pl.DataFrame(
        checks,
        schema={
            "column": pl.String,
            "check_number": pl.Int32,
            "rank": pl.Int64,
            "rule": pl.String,
            "message": pl.String,
        },
        orient="row",
    )
    joined = (
        cases.join(lookup, on=["column", "check_number"], how="left")
        .with_columns(
            pl.col("rule").fill_null(pl.col("check")),
            pl.col("message").fill_null(pl.col("check")),
            pl.col("rank").fill_null(-1),
        )
        .sort(["rank", "index"], nulls_last=False, maintain_order=True)
    )
    return pd.DataFrame(
        {
            "position": pd.array(joined["index"].cast(pl.Float64).to_numpy(), dtype="Int64"),
            "column": joined["column"].to_numpy(),
            "rule": joined["rule"].to_numpy(),
            "value": joined["failure_case"].cast(pl.String).to_numpy(),
            "message": joined["message"].to_numpy(),
        }
    )
