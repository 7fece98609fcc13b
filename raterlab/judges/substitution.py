"""Judge substitution: the human mean (or rate) over all units a judge scored, estimated by
prediction-powered inference (:mod:`raterlab.judges.ppi`) from the humans' labels on the
units they rated and the judge's scores on every unit.

Inputs are long frames: humans ``unit, rater, field, value``; judges ``unit, judge, field,
value``. Per field, judge and slice, the units are those the judge gave a verdict (a number,
for graded fields; a study passes an unreadable verdict as missing); a unit is labelled when
some human rated the field on it, unlabelled otherwise. Human ratings of units
the judge did not score are not used.

What is estimated, per kind of field:

- ``graded``: the mean over units of the per-unit human aggregate (mean of the raters, or
  median); the judge's score is its prediction **as it is**, so judge and humans should be
  on the same scale (the tuned ``lam`` keeps the interval valid on any scale, but it is
  clipped to [0, 1], so a judge on another scale helps less or not at all);
- ``binary``: the rate of ``1`` (``label`` ``1``): per unit, the aggregate of the raters'
  indicators of 1 (the share of raters who said 1 with the mean; the majority, 0.5 on a tie,
  with the median), predicted by the judge's indicator of 1;
- ``categorical``: one row per label, the rate of that label, in the same way (a verdict that
  is none of the labels predicts 0 for each).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict

import numpy as np
import pandas as pd

from raterlab.judges.frames import JudgeInputError, label_text, reject_duplicates, slice_masks
from raterlab.judges.ppi import PPIUndefined, classical_mean, ppi_mean

COLUMNS = (
    "judge",
    "field",
    "slice",
    "label",
    "n_labeled",
    "n_unlabeled",
    "estimate",
    "ci_low",
    "ci_high",
    "classical_estimate",
    "classical_ci_low",
    "classical_ci_high",
    "lam",
    "effective_n",
)
"""One row per judge, field, slice and label (NULL for graded fields)."""

ALL = "all"


def _numbers(field: str, frame: pd.DataFrame) -> pd.Series:
    """The human ratings as floats; one that is not a number raises, naming it."""
    values = pd.to_numeric(frame["value"], errors="coerce")
    bad = values.isna() & frame["value"].notna()
    if bad.any():
        row = frame[bad].iloc[0]
        raise JudgeInputError(
            f"field {field!r}: human rating {row['value']!r} of unit {row['unit']!r} by "
            f"{row['rater']!r} is not a number (list the field as categorical)"
        )
    return values.astype(float)


def _human_targets(
    kind: str, field: str, humans: pd.DataFrame, labels: list[str], aggregate: str
) -> dict[str | None, pd.Series]:
    """Per label (None for a graded field): the human aggregate per rated unit, of the
    ratings or of their indicators of the label."""
    if kind == "graded":
        per_rating = {None: _numbers(field, humans)}
    else:
        text = humans["value"].map(label_text)
        per_rating = {
            label: (text == label).astype(float)
            for label in (["1"] if kind == "binary" else labels)
        }
    units = humans["unit"].to_numpy()
    grouped = {label: values.groupby(units) for label, values in per_rating.items()}
    if aggregate == "median":
        return {label: g.median() for label, g in grouped.items()}
    return {label: g.mean() for label, g in grouped.items()}


def _prediction(verdicts: pd.Series, label: str | None) -> pd.Series:
    """The judge's prediction per unit it scored: its number (graded; a verdict that is not a
    number leaves the unit out), or its indicator of ``label``."""
    if label is None:
        return pd.to_numeric(verdicts, errors="coerce").astype(float).dropna()
    return (verdicts.map(label_text) == label).astype(float)


def _row(
    y: np.ndarray, yhat: np.ndarray, unl: np.ndarray, confidence: float, strict: bool
) -> dict[str, object]:
    try:
        return asdict(ppi_mean(y, yhat, unl, confidence))
    except PPIUndefined:
        if strict:
            raise
    out: dict[str, object] = {"n_labeled": len(y), "n_unlabeled": len(unl)}
    if len(y) >= 2:
        mean, low, high = classical_mean(y, confidence)
        out |= {"classical_estimate": mean, "classical_ci_low": low, "classical_ci_high": high}
    return out


def _field_rows(
    field: str,
    targets: dict[str | None, pd.Series],
    judges: pd.DataFrame,
    confidence: float,
    slices: Mapping[str, Mapping[str, object]],
    strict: bool,
) -> Iterator[dict[str, object]]:
    for judge, verdicts in judges.groupby("judge", sort=True):
        verdicts = verdicts.set_index("unit")["value"]
        for label, y_all in targets.items():
            pred = _prediction(verdicts, label)
            y = y_all.reindex(pred.index).to_numpy(dtype=float)
            labelled = ~np.isnan(y)
            masks = slice_masks(slices, pred.index.to_numpy())
            for name, mask in [(ALL, np.ones(len(pred), dtype=bool)), *masks.items()]:
                try:
                    row = _row(
                        y[mask & labelled],
                        pred.to_numpy()[mask & labelled],
                        pred.to_numpy()[mask & ~labelled],
                        confidence,
                        strict,
                    )
                except PPIUndefined as error:
                    raise JudgeInputError(f"judge {judge!r}, field {field!r}: {error}") from None
                yield {"judge": str(judge), "field": field, "slice": name, "label": label, **row}


def substitution_table(
    humans: pd.DataFrame,
    judges: pd.DataFrame,
    kinds: Mapping[str, str],
    labels: Mapping[str, list[str]] | None = None,
    aggregate: str = "mean",
    confidence: float = 0.95,
    slices: Mapping[str, Mapping[str, object]] | None = None,
    strict: bool = False,
) -> pd.DataFrame:
    """:data:`COLUMNS` for every field of ``kinds`` (field -> ``graded`` | ``binary`` |
    ``categorical``) and judge (see the module docstring). ``labels`` fixes a categorical
    field's labels (default: those the humans used); ``slices`` maps a key to unit -> level.

    Where PPI is undefined (fewer than 2 labelled units, no unlabelled unit) the row keeps
    its counts, the classical columns when there are 2 labelled units or more, and NULL
    elsewhere; with ``strict`` it raises :class:`JudgeInputError` naming judge and field.
    """
    reject_duplicates(humans, ["unit", "rater", "field"], "human ratings")
    reject_duplicates(judges, ["unit", "judge", "field"], "judge scores")
    humans = humans[humans["value"].notna()].assign(unit=lambda f: f["unit"].astype(str))
    judges = judges.assign(unit=judges["unit"].astype(str))
    rows: list[dict[str, object]] = []
    for field, kind in kinds.items():
        h = humans[humans["field"] == field]
        j = judges[(judges["field"] == field) & judges["value"].notna()]
        used = sorted({label_text(v) for v in h["value"]})
        field_labels = [str(v) for v in (labels or {}).get(field, used)]
        targets = _human_targets(kind, field, h, field_labels, aggregate)
        rows += _field_rows(field, targets, j, confidence, slices or {}, strict)
    return pd.DataFrame(rows, columns=list(COLUMNS))
