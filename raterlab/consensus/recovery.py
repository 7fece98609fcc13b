"""How often each consensus method recovers the planted truth of a simulated study.

``staging.sim_truth`` (written by :mod:`raterlab.simulate`) holds the true value of every
item and rating field. For each task and field, and each method:

``policy``       the study's policy value (``policy_value``: adjudicated decisions, tie-breaks,
                 majority labels, Likert medians/means);
``dawid_skene``  the Dawid-Skene posterior mode from the ratings alone (``ds_value``);

``n`` counts item-fields with a truth, ``n_valued`` those the method gave a value,
``recovered`` those whose value equals the truth (Likert numerically: a median of ``3.5``
does not equal ``3``), ``within_half`` those within half a point (Likert; else as recovered).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

RECOVERY_COLUMNS = (
    "task",
    "field",
    "method",
    "n",
    "n_valued",
    "recovered",
    "within_half",
    "share",
    "share_valued",
)
METHOD_COLUMNS = {"policy": "policy_value", "dawid_skene": "ds_value"}


def _same(value: object, truth: str, truth_num: float) -> tuple[bool, bool]:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return False, False
    if not np.isnan(truth_num):
        try:
            v = float(value)
        except (TypeError, ValueError):
            return False, False
        return v == truth_num, abs(v - truth_num) <= 0.5
    return str(value) == truth, str(value) == truth


def truth_recovery(consensus: pd.DataFrame, truth: pd.DataFrame) -> pd.DataFrame:
    """Per task, field and method: :data:`RECOVERY_COLUMNS` (see the module doc)."""
    if consensus.empty or truth is None or truth.empty:
        return pd.DataFrame(columns=list(RECOVERY_COLUMNS))
    items = truth[truth["role"] == "item"] if "role" in truth else truth
    joined = consensus.merge(
        items[["item_id", "task", "field", "value", "value_num"]].rename(
            columns={"value": "truth", "value_num": "truth_num"}
        ),
        on=["task", "item_id", "field"],
    )
    rows = []
    for method, column in METHOD_COLUMNS.items():
        hits = [
            _same(v, t, float(tn) if tn is not None and not pd.isna(tn) else np.nan)
            for v, t, tn in zip(joined[column], joined["truth"], joined["truth_num"], strict=True)
        ]
        frame = joined.assign(
            valued=joined[column].notna(),
            recovered=[h[0] for h in hits],
            within_half=[h[1] for h in hits],
        )
        for (task, field), g in frame.groupby(["task", "field"], sort=True):
            n, valued = len(g), int(g["valued"].sum())
            recovered = int(g["recovered"].sum())
            rows.append(
                (
                    task,
                    field,
                    method,
                    n,
                    valued,
                    recovered,
                    int(g["within_half"].sum()),
                    recovered / n if n else None,
                    recovered / valued if valued else None,
                )
            )
    return pd.DataFrame(rows, columns=list(RECOVERY_COLUMNS))


def overall(recovery: pd.DataFrame) -> pd.DataFrame:
    """Totals per method over every task and field."""
    if recovery.empty:
        return pd.DataFrame(columns=["method", "n", "n_valued", "recovered", "share"])
    sums = recovery.groupby("method")[["n", "n_valued", "recovered", "within_half"]].sum()
    sums["share"] = (sums["recovered"] / sums["n"]).round(4)
    sums["share_valued"] = (sums["recovered"] / sums["n_valued"]).round(4)
    return sums.reset_index()
