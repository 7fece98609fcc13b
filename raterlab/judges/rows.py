"""Rows of a calibration table (:data:`COLUMNS`): the estimate with its bootstrap interval,
the human ceiling beside it, the pairwise judge comparisons and the bias per system, shared by
graded and categorical fields."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pandas as pd

from raterlab.judges import resample
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.resample import Replicates
from raterlab.judges.significance import paired_bootstrap_p

COLUMNS = (
    "judge",
    "field",
    "slice",
    "level",
    "statistic",
    "label",
    "versus",
    "n",
    "n_groups",
    "estimate",
    "ci_low",
    "ci_high",
    "human_ceiling",
    "ceiling_low",
    "ceiling_high",
    "human_alpha",
    "within_human_range",
    "p_value",
    "williams_t",
    "williams_p",
)
"""Columns of a calibration table (the study adds ``study`` and ``task``)."""

ALL = "all"


def calibration_row(
    fi: FieldInput, judge: str, slice_: str, level: str, statistic: str, **values
) -> dict:
    """One row of :data:`COLUMNS`: what it is about, then ``values``; the rest empty."""
    row = dict.fromkeys(COLUMNS)
    row.update(judge=judge, field=fi.field, slice=slice_, level=level, statistic=statistic)
    row.update(values)
    return row


def interval_values(rep: Replicates, confidence: float) -> dict:
    """``estimate``, ``ci_low`` and ``ci_high`` of a statistic's replicates."""
    low, high = rep.interval(confidence)
    return {"estimate": rep.estimate, "ci_low": low, "ci_high": high}


def human_ceiling(reps: list[Replicates]) -> Replicates | None:
    """Mean over annotators of their leave-one-out statistic, per resample."""
    defined = [r for r in reps if np.isfinite(r.estimate)]
    if not defined:
        return None
    stacked = np.vstack([r.replicates for r in defined]) if defined[0].replicates.size else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample where no one is defined
        replicates = np.nanmean(stacked, axis=0) if stacked is not None else np.empty(0)
    return Replicates(float(np.mean([r.estimate for r in defined])), replicates)


def with_ceiling(values: dict, ceiling: Replicates | None, alpha: float, conf: float) -> dict:
    """``values`` with the humans' alpha, their ceiling and its interval, and whether the
    estimate reaches the ceiling's lower bound (``within_human_range``)."""
    values["human_alpha"] = alpha
    if ceiling is None:
        return values
    low, high = ceiling.interval(conf)
    values.update(human_ceiling=ceiling.estimate, ceiling_low=low, ceiling_high=high)
    estimate = values.get("estimate")
    if estimate is not None and np.isfinite(estimate) and np.isfinite(low):
        values["within_human_range"] = bool(estimate >= low)
    return values


def comparisons(
    fi: FieldInput,
    slice_: str,
    level: str,
    reps: dict[str, dict[str, Replicates]],
    statistics: tuple[str, ...],
    conf: float,
    williams: dict[tuple[str, str], tuple[float, float]] | None = None,
) -> Iterator[dict]:
    """Each pair of judges: difference of each statistic, paired-bootstrap interval and p."""
    for a, b in combinations(sorted(reps), 2):
        for stat in statistics:
            ra, rb = reps[a][stat], reps[b][stat]
            diff = Replicates(ra.estimate - rb.estimate, ra.replicates - rb.replicates)
            values = interval_values(diff, conf)
            values["p_value"] = paired_bootstrap_p(diff.replicates)
            if stat == "pearson" and williams and (a, b) in williams:
                values["williams_t"], values["williams_p"] = williams[(a, b)]
            yield calibration_row(fi, a, slice_, level, f"{stat}_diff", versus=b, **values)


def system_bias(
    fi: FieldInput, opts: Options, diffs: dict[tuple[str, str | None], np.ndarray]
) -> Iterator[dict]:
    """Bias within each system (does the judge favour one model or condition?): level
    ``system``, label ``<system>`` (graded) or ``<system>|<class>`` (categorical)."""
    systems = pd.Series(fi.systems).fillna("(none)").astype(str).to_numpy()
    names = sorted(set(systems))
    keys = [(key, name) for key in diffs for name in names]
    consumers = [
        resample.mean_consumer(np.where(systems == name, diffs[key], np.nan)) for key, name in keys
    ]
    results = resample.run(systems.size, consumers, opts.resamples, opts.seed)
    for ((judge, label), name), result in zip(keys, results, strict=True):
        values = interval_values(result["mean"], opts.confidence)
        n = int(((systems == name) & np.isfinite(diffs[(judge, label)])).sum())
        text = name if label is None else f"{name}|{label}"
        yield calibration_row(fi, judge, ALL, "system", "bias", label=text, n=n, **values)
