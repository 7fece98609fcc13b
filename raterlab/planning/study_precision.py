"""The precision a study's design plans for each declared agreement threshold and gate.

For the pilot gate and every minimum, on every field it reads (a ``per: task`` minimum
field by field), the design fixes the units (items rated by two or more annotators:
the pilot's for the gate, all rounds' for a minimum, within the threshold's ``slice`` tier
when it names one), the annotators per unit (the median over those units) and the field's
categories. The planned interval is the one
:func:`raterlab.planning.agreement_units.simulated_width` simulates there, with the
coefficient exactly as the threshold declares it
(:func:`raterlab.agreement.declared.declared_coefficient`) at the threshold's own value: how
wide the 95% interval will be if agreement sits at the bar. ``raterlab study check`` prints
it; a report can set it beside the achieved interval of ``gold.agreement``.

Few studies are simulated (:data:`SIMULATIONS`, seeded with the study's ``design.seed``), so
a check stays fast: the width is good to about 1/sqrt(2 x 200) = 5%.
"""

from __future__ import annotations

import functools

import pandas as pd

from raterlab.agreement.declared import declared_coefficient
from raterlab.design.assignment import assign
from raterlab.design.routing import routed_items
from raterlab.planning.agreement_units import simulated_width
from raterlab.protocol import LikertField, Study
from raterlab.protocol.coefficients import applies
from raterlab.protocol.study import Threshold

__all__ = ["COLUMNS", "SIMULATIONS", "planned_precision"]

SIMULATIONS = 200
"""Studies simulated per planned width."""
COLUMNS = [
    "study",
    "task",
    "field",
    "threshold",
    "coefficient",
    "level",
    "min",
    "slice",
    "planned_units",
    "n_raters",
    "n_categories",
    "planned_ci_width",
    "note",
]
"""One row per threshold (``thresholds.pilot_gate``, ``thresholds.minimums[i]``), task and
field it reads."""


def planned_precision(study: Study, generations: pd.DataFrame) -> pd.DataFrame:
    """The planned interval width of every declared threshold on every field it reads (module
    docstring); ``note`` says why a row has none."""
    assignment = assign(study, routed_items(study, generations), generations)
    items = assignment[assignment["kind"] == "item"]
    rows = []
    for path, threshold in _in_file_order(study):
        for task_name, task in study.tasks.items():
            units = _units(items, task_name, path, threshold)
            for field in task.rating_fields:
                spec = task.fields[field]
                if threshold.fields and field not in threshold.fields:
                    continue
                if applies(threshold, spec):
                    rows.append(_row(study, task_name, field, spec, path, threshold, units))
    return pd.DataFrame(rows, columns=COLUMNS)


def _in_file_order(study: Study) -> list[tuple[str, Threshold]]:
    """The gate, then the minimums, as the study file lists them."""
    gate = study.thresholds.pilot_gate
    named = [("thresholds.pilot_gate", gate)] if gate is not None else []
    return named + [
        (f"thresholds.minimums[{i}]", t) for i, t in enumerate(study.thresholds.minimums)
    ]


def _units(items: pd.DataFrame, task: str, path: str, threshold: Threshold) -> pd.Series:
    """Annotators per unit of ``task`` that the threshold is computed on."""
    own = items[items["task"] == task]
    if path == "thresholds.pilot_gate":
        own = own[own["batch"] == "pilot"]
    if threshold.slice is not None:
        key, _, value = threshold.slice.partition("=")
        if key in own:
            own = own[own[key].astype(str) == value]
    raters = own.groupby("item_id")["annotator_id"].nunique()
    return raters[raters >= 2]


def _row(
    study: Study,
    task: str,
    field: str,
    spec: object,
    path: str,
    threshold: Threshold,
    units: pd.Series,
) -> dict[str, object]:
    level, coefficient = declared_coefficient(threshold, spec)
    categories = spec.max - spec.min + 1 if isinstance(spec, LikertField) else len(spec.domain())
    raters = (
        2 if coefficient.startswith("cohen_kappa") else int(units.median()) if len(units) else 0
    )
    row = {
        "study": study.name,
        "task": task,
        "field": field,
        "threshold": path,
        "coefficient": coefficient,
        "level": level,
        "min": threshold.min,
        "slice": threshold.slice or "all",
        "planned_units": len(units),
        "n_raters": raters,
        "n_categories": categories,
        "planned_ci_width": float("nan"),
        "note": "",
    }
    try:
        row["planned_ci_width"] = _width(
            coefficient, threshold.min, len(units), raters, categories, level, study.design.seed
        )
    except ValueError as error:
        row["note"] = str(error)
    return row


@functools.lru_cache(maxsize=256)
def _width(
    coefficient: str,
    value: float,
    n_units: int,
    raters: int,
    categories: int,
    level: str,
    seed: int,
) -> float:
    return simulated_width(
        coefficient, value, n_units, raters, categories, level, simulations=SIMULATIONS, seed=seed
    ).ci_width
