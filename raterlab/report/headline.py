"""The protocol's agreement coefficients as the report shows them first: the ``headline`` rows
of ``gold.agreement`` with the thresholds they answer (``declared_by``) and whether they meet
them. Nothing here names a coefficient: the study's thresholds chose the rows."""

from __future__ import annotations

import re

import pandas as pd

from raterlab.protocol import Study
from raterlab.protocol.study import Threshold
from raterlab.report.html import interval

_NAME = re.compile(r"thresholds\.(pilot_gate|minimums\[(\d+)\])")


def named_threshold(study: Study, name: str) -> Threshold | None:
    """The threshold at a YAML path (``thresholds.pilot_gate``, ``thresholds.minimums[1]``)."""
    match = _NAME.fullmatch(name.strip())
    if match is None:
        return None
    if match.group(2) is None:
        return study.thresholds.pilot_gate
    index = int(match.group(2))
    minimums = study.thresholds.minimums
    return minimums[index] if index < len(minimums) else None


def coefficient_label(coefficient: str, level: str) -> str:
    """``cohen_kappa (weights=unweighted)``: the coefficient with what it was computed at."""
    return f"{coefficient} ({level})" if level else coefficient


def _rule(threshold: Threshold) -> str:
    return f"{'>' if threshold.strict else '>='} {threshold.min:g}"


def _meets(threshold: Threshold, estimate: float) -> bool:
    if pd.isna(estimate):
        return False
    return bool(estimate > threshold.min if threshold.strict else estimate >= threshold.min)


def targets(study: Study, declared_by: str, slice_name: str) -> list[tuple[str, Threshold]]:
    """The thresholds a row answers on its slice: the pilot gate (judged on the pilot round,
    shown on every slice as the protocol's target) and the minimums judged on this slice."""
    found = []
    for name in filter(None, (n.strip() for n in str(declared_by or "").split(","))):
        threshold = named_threshold(study, name)
        if threshold is None:
            continue
        gate = name == "thresholds.pilot_gate"
        if gate or (threshold.slice or "all") == slice_name:
            found.append((name, threshold))
    return found


def headline_table(study: Study, agreement: pd.DataFrame, slices: list[str]) -> pd.DataFrame:
    """One row per field (or pooled task) and slice of ``slices``: the protocol's coefficient
    with its 95% interval, band, the target it answers and whether it meets it."""
    if agreement.empty or "headline" not in agreement:
        return pd.DataFrame()
    rows = agreement[agreement["headline"].astype(bool) & agreement["slice"].isin(slices)]
    order = {s: i for i, s in enumerate(slices)}
    rows = rows.assign(_order=rows["slice"].map(order)).sort_values(["task", "field", "_order"])
    out = []
    for _, r in rows.iterrows():
        answered = targets(study, r.get("declared_by", ""), r["slice"])
        target = "; ".join(f"{_rule(t)} ({n.removeprefix('thresholds.')})" for n, t in answered)
        meets = [_meets(t, r["estimate"]) for _, t in answered]
        out.append(
            {
                "task": r["task"],
                "field": r["field"],
                "slice": r["slice"],
                "coefficient": coefficient_label(r["coefficient"], r["level"]),
                "estimate [95% CI]": interval(r["estimate"], r["ci_low"], r["ci_high"], digits=3)
                or "n/a",
                "n": r["n_units"],
                "band": r["band"],
                "target": target,
                "meets": ("yes" if all(meets) else "no") if meets else "",
            }
        )
    frame = pd.DataFrame(out)
    if len(study.tasks) == 1 and len(frame):
        frame = frame.drop(columns="task")
    return frame
