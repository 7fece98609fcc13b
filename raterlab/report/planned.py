"""The precision the design planned for each declared threshold beside what the study
achieved: the interval width ``raterlab study check`` promised before annotation, and the
width of the 95% interval the ratings gave."""

from __future__ import annotations

import pandas as pd

from raterlab.planning.study_precision import planned_against_achieved, planned_precision
from raterlab.protocol import Study

GATE = "thresholds.pilot_gate"

COLUMNS = [
    "threshold",
    "task",
    "field",
    "slice",
    "coefficient",
    "planned_units",
    "planned_ci_width",
    "achieved_units",
    "achieved_ci_width",
]


def achieved_rows(thresholds: pd.DataFrame, pilot_gates: pd.DataFrame) -> pd.DataFrame:
    """One row per threshold, task, field and slice with the achieved ``n_units``, ``ci_low``
    and ``ci_high``: the minimums from ``staging.agreement_thresholds``, the gate from the
    latest attempt in ``gold.pilot_gates`` (judged on all of that round's units)."""
    keys = ["threshold", "task", "field", "slice", "n_units", "ci_low", "ci_high"]
    parts = [thresholds[keys]] if len(thresholds) else []
    if len(pilot_gates):
        latest = pilot_gates[pilot_gates["attempt"] == pilot_gates["attempt"].max()]
        parts.append(latest.assign(threshold=GATE, slice="all")[keys])
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=keys)


def planned_and_achieved(
    study: Study,
    thresholds: pd.DataFrame,
    pilot_gates: pd.DataFrame,
    planned: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """``planned`` (``staging.planned_precision``, which the assignment step writes; computed
    here by :func:`raterlab.planning.study_precision.planned_precision` when ``None``, as for
    a warehouse written before that table) joined with :func:`achieved_rows`; empty when the
    study declares no threshold."""
    if planned is None:
        planned = planned_precision(study)
    if planned.empty:
        return pd.DataFrame(columns=COLUMNS)
    joined = planned_against_achieved(planned, achieved_rows(thresholds, pilot_gates))
    return joined[COLUMNS]
