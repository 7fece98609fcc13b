"""Calibration: each annotator's answers on the pre-scored calibration items against the key.

Per annotator and field, over calibration answers ``a_i`` with key ``k_i``:

- ``calibration_exact`` = share with ``a_i == k_i``;
- ``calibration_within_one`` = share with ``|a_i - k_i| <= 1`` (Likert; exact otherwise),
  flagged below :data:`MIN_WITHIN_ONE`;
- ``calibration_weighted_kappa`` = Cohen's kappa of the annotator against the key, quadratic
  weights on a Likert scale, unweighted otherwise (Cohen 1968);
- ``calibration_mean_signed_error`` = mean of ``a_i - k_i`` (Likert and binary fields):
  above zero the annotator reads the scale higher than the key (lenient), below it lower
  (severe). Flagged when ``|error|`` exceeds :data:`MAX_SIGNED_ERROR` (in scale points; for
  a binary field, a share of answers). The interval is the t interval of the mean.

The ``all`` rows pool the Likert fields (the binary ones when the task has no Likert field);
a field's row is judged only with at least ``MIN_FIELD_N`` answers.
An answer off the key by two or more points, or a different label, is an item flag
``calibration_off``.

Reference: Cohen, J. (1968). Weighted kappa. Psychological Bulletin, 70, 213-220.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from raterlab.agreement import AgreementUndefined, cohen_kappa
from raterlab.protocol import Study
from raterlab.quality.attention import answers_vs_expected
from raterlab.quality.ratings import ALL, MIN_FIELD_N, field_slice, metric, rating_fields, show

MIN_WITHIN_ONE = 0.8
MAX_SIGNED_ERROR = {"likert": 0.5, "binary": 0.25}


def calibration_answers(
    study: Study, labels: pd.DataFrame, rows: pd.DataFrame, generations: pd.DataFrame
) -> pd.DataFrame:
    """Every calibration answer of a rating field with its key: ``x``, ``expected``,
    ``likert``, ``numeric``, ``exact``, ``within_one``, ``error`` (NaN when not numeric)."""
    grid = answers_vs_expected(study, labels, rows, generations, "calibration")
    fields = rating_fields(study)
    known = [(t, f) in fields for t, f in zip(grid["task"], grid["field"], strict=True)]
    grid = grid[np.array(known, dtype=bool) & grid["x"].notna()].copy()
    info = [fields[(t, f)] for t, f in zip(grid["task"], grid["field"], strict=True)]
    grid["likert"] = np.array([i.likert for i in info], dtype=bool)
    grid["numeric"] = np.array([i.numeric for i in info], dtype=bool)
    grid["exact"] = grid["match"].astype(bool)
    error = np.full(len(grid), np.nan)
    numeric = grid["numeric"].to_numpy()
    error[numeric] = grid["x"].to_numpy()[numeric].astype(float) - grid["expected"].to_numpy()[
        numeric
    ].astype(float)
    grid["error"] = error
    grid["within_one"] = np.where(grid["likert"], np.abs(error) <= 1, grid["exact"]).astype(bool)
    return grid


def mean_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """t interval of the mean: ``mean +- t_{(1+level)/2, n-1} * sd / sqrt(n)``."""
    n = len(values)
    if n < 2:
        return (np.nan, np.nan)
    sd = float(np.std(values, ddof=1))
    half = float(stats.t.ppf((1 + level) / 2, n - 1)) * sd / np.sqrt(n)
    mean = float(np.mean(values))
    return (mean - half, mean + half)


def _pooled(part: pd.DataFrame) -> pd.DataFrame:
    likert = part[part["likert"]]
    return likert if len(likert) else part[part["numeric"]]


def calibration_metrics(study: Study, answers: pd.DataFrame) -> list[dict]:
    fields = rating_fields(study)
    out = []
    for annotator, own in answers.groupby("annotator_id", sort=True):
        pooled = _pooled(own)
        scale = "likert" if pooled["likert"].any() else "binary"
        out += [
            metric(annotator, "calibration_exact", ALL, own["exact"].mean(), len(own)),
            metric(
                annotator,
                "calibration_within_one",
                ALL,
                own["within_one"].mean(),
                len(own),
                target=MIN_WITHIN_ONE,
                comparison=">=",
            ),
        ]
        if len(pooled):
            errors = pooled["error"].to_numpy(dtype=float)
            out.append(
                metric(
                    annotator,
                    "calibration_mean_signed_error",
                    ALL,
                    errors.mean(),
                    len(errors),
                    target=MAX_SIGNED_ERROR[scale],
                    comparison="|x|<=",
                    ci=mean_interval(errors),
                )
            )
        for (task, field), part in own.groupby(["task", "field"], sort=True):
            info = fields[(task, field)]
            label = field_slice(study, task, field)
            out += [
                metric(annotator, "calibration_exact", label, part["exact"].mean(), len(part)),
                metric(
                    annotator,
                    "calibration_within_one",
                    label,
                    part["within_one"].mean(),
                    len(part),
                    target=MIN_WITHIN_ONE,
                    comparison=">=",
                    flagged=None if len(part) >= MIN_FIELD_N else False,
                ),
            ]
            try:
                matrix = part[["x", "expected"]].to_numpy(dtype=object)
                kappa = float(cohen_kappa(matrix, weights=info.weights, categories=info.categories))
                out.append(metric(annotator, "calibration_weighted_kappa", label, kappa, len(part)))
            except (AgreementUndefined, ValueError):
                pass
            if info.numeric:
                errors = part["error"].to_numpy(dtype=float)
                out.append(
                    metric(
                        annotator,
                        "calibration_mean_signed_error",
                        label,
                        errors.mean(),
                        len(errors),
                        target=MAX_SIGNED_ERROR["likert" if info.likert else "binary"],
                        comparison="|x|<=",
                        flagged=None if len(errors) >= MIN_FIELD_N else False,
                        ci=mean_interval(errors),
                    )
                )
    return out


def calibration_flags(answers: pd.DataFrame) -> list[dict]:
    """``calibration_off``: answers two or more points from the key (or another label)."""
    off = answers[
        np.where(answers["likert"], np.abs(answers["error"]) >= 2, ~answers["exact"]).astype(bool)
    ]
    out = []
    for (annotator, task, item), part in off.groupby(["annotator_id", "task", "item_id"]):
        part = part.sort_values("field", kind="stable")  # the text, whatever the rows' order
        detail = "; ".join(
            f"{f} {show(x)} (key {show(e)})"
            for f, x, e in zip(part["field"], part["x"], part["expected"], strict=True)
        )
        out.append(
            {
                "annotator_id": annotator,
                "task": task,
                "item_id": item,
                "flag": "calibration_off",
                "detail": detail,
            }
        )
    return out
