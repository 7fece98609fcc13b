"""The precision a study's design plans for each declared agreement threshold and gate.

For the pilot gate and every minimum, on every field it reads, the design fixes the units
(items rated by two or more annotators: the pilot's for the gate, all rounds' for a minimum,
within the threshold's ``slice`` tier when it names one), the annotators per unit (the median
over those units) and the field's categories. A ``per: task`` minimum is planned on the
fields it pools, one level at a time, as ``gold.agreement`` computes it: a unit per item and
field (an optimistic count, as the fields of one item go together), on the most categories
among them. The planned interval is the one
:func:`raterlab.planning.agreement_units.simulated_width` simulates there, with the
coefficient exactly as the threshold declares it
(:func:`raterlab.agreement.declared.declared_coefficient`) at the threshold's own value: how
wide the 95% interval will be if agreement sits at the bar. ``raterlab study check`` prints
it; :func:`planned_against_achieved` sets it beside the interval a study achieved.

Few studies are simulated (:data:`SIMULATIONS`, seeded with the study's ``design.seed``), so
a check stays fast: the width is good to about 1/sqrt(2 x 200) = 5%.
"""

from __future__ import annotations

import functools

import pandas as pd

from raterlab.agreement.declared import declared_coefficient
from raterlab.design import read_generations
from raterlab.design.assignment import assign
from raterlab.design.routing import routed_items
from raterlab.planning.agreement_units import simulated_width
from raterlab.protocol import LikertField, Study
from raterlab.protocol.coefficients import applies
from raterlab.protocol.study import Threshold

__all__ = ["COLUMNS", "SIMULATIONS", "planned_against_achieved", "planned_precision"]

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


def planned_precision(study: Study, generations: pd.DataFrame | None = None) -> pd.DataFrame:
    """The planned interval width of every declared threshold on every field it reads (module
    docstring), from ``generations`` (default: the study's own file); ``note`` says why a
    row has none."""
    if generations is None:
        generations = read_generations(study)
    assignment = assign(study, routed_items(study, generations), generations)
    items = assignment[assignment["kind"] == "item"]
    rows = []
    for path, threshold in _in_file_order(study):
        for task_name, task in study.tasks.items():
            units = _units(items, task_name, path, threshold)
            read = [
                (field, task.fields[field])
                for field in task.rating_fields
                if (not threshold.fields or field in threshold.fields)
                and applies(threshold, task.fields[field])
            ]
            groups = _pooled(threshold, read) if threshold.per == "task" else _one_each(read)
            rows += [
                _row(study, task_name, field, specs, path, threshold, units)
                for field, specs in groups
            ]
    return pd.DataFrame(rows, columns=COLUMNS)


def planned_against_achieved(planned: pd.DataFrame, achieved: pd.DataFrame) -> pd.DataFrame:
    """:func:`planned_precision` beside what a study achieved: ``achieved`` has a row per
    threshold, task, field and slice with ``n_units``, ``ci_low`` and ``ci_high``
    (``staging.agreement_thresholds`` for the minimums, or the pilot gate's rows with
    ``threshold`` set to ``thresholds.pilot_gate``). Adds ``achieved_units`` and
    ``achieved_ci_width``; a planned row nothing achieved yet has them empty."""
    keys = ["threshold", "task", "field", "slice"]
    got = achieved[[*keys, "n_units", "ci_low", "ci_high"]].assign(
        achieved_ci_width=lambda t: t["ci_high"] - t["ci_low"]
    )
    got = got.rename(columns={"n_units": "achieved_units"})
    return planned.merge(got[[*keys, "achieved_units", "achieved_ci_width"]], on=keys, how="left")


def _one_each(read: list[tuple[str, object]]) -> list[tuple[str, list[object]]]:
    return [(field, [spec]) for field, spec in read]


def _pooled(threshold: Threshold, read: list[tuple[str, object]]) -> list[tuple[str, list[object]]]:
    """The fields a ``per: task`` threshold pools, by level, named as ``gold.agreement``
    names them (:func:`raterlab.agreement.study.pooled_task_agreement`)."""
    by_level: dict[str, list[tuple[str, object]]] = {}
    for field, spec in read:
        likert = isinstance(spec, LikertField)
        if threshold.level and (threshold.level == "nominal") == likert:
            continue
        level = (threshold.level or "ordinal") if likert else "nominal"
        by_level.setdefault(level, []).append((field, spec))
    return [
        (f"(pooled {level}: {', '.join(f for f, _ in members)})", [s for _, s in members])
        for level, members in by_level.items()
    ]


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


def _categories(spec: object) -> int:
    return spec.max - spec.min + 1 if isinstance(spec, LikertField) else len(spec.domain())


def _row(
    study: Study,
    task: str,
    field: str,
    specs: list[object],
    path: str,
    threshold: Threshold,
    units: pd.Series,
) -> dict[str, object]:
    """One planned row: a field, or the fields a ``per: task`` threshold pools (each unit
    counted once per field, on the most categories among them)."""
    level, coefficient = declared_coefficient(threshold, specs[0])
    if threshold.per == "task" and threshold.coefficient == "krippendorff_alpha":
        level = "ordinal" if isinstance(specs[0], LikertField) else "nominal"
        coefficient = f"krippendorff_alpha:{threshold.level or level}"
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
        "planned_units": len(units) * len(specs),
        "n_raters": raters,
        "n_categories": max(_categories(spec) for spec in specs),
        "planned_ci_width": float("nan"),
        "note": "",
    }
    if len(units) < 2:
        row["note"] = f"the design has {len(units)} unit(s) rated by two or more annotators here"
        return row
    try:
        row["planned_ci_width"] = _width(
            coefficient,
            threshold.min,
            row["planned_units"],
            raters,
            row["n_categories"],
            level,
            study.design.seed,
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
