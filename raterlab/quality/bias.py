"""Bias: how an annotator's ratings sit against the other raters' on the same items.

Only ordinary ratings count (``kind = item``, first copy) of Likert and binary fields.

Leniency and severity
    The additive rater-effects model ``x_ai = mu_i + b_a + e_ai`` (a two-way layout with
    missing cells: each item has its own level, each rater a constant shift), fitted by
    alternating least squares on the items at least two annotators rated, with the effects
    centred on their median rater (:func:`rater_effects`). ``leniency`` is ``b_a``: above
    zero the annotator rates higher than the median rater on the same items (lenient),
    below zero lower (severe). Unlike "minus the mean of the others", a faithful rater
    next to a biased one is not pulled the other way, and a planted shift comes back at its
    size. The interval is the t interval of the rater's residuals ``x_ai - mu_i`` (whose
    mean is ``b_a``); ``p_value`` is the one-sample t-test of that mean (a mean shift is what
    leniency is; on binary fields the residuals are far from symmetric, so a signed-rank test
    would test something else), Bonferroni-adjusted over the annotators tested on the same
    slice. Flagged when the adjusted ``p < LENIENCY_ALPHA`` (0.01) and ``|leniency|`` is at
    least :data:`MIN_SHIFT`: 0.4 scale points on a Likert field, 0.04 on a binary one (a
    share of "yes"; below that, two faithful raters differ by chance on a few dozen items).
    The ``all`` row fits the pooled fields (Likert, else binary) together and averages each
    item's residuals, so each item counts once in the test. With two raters the model cannot
    say which of them is shifted: each gets half.

Mean rating per slice
    ``mean_rating`` per field, and per field and slice value (``field=overall|condition=A``):
    the annotator's mean (no flag). Whether someone rates condition A higher *than the
    others do on the same items* is ``slice_bias``: the annotator's mean ``d`` on the items
    with that value minus their mean ``d`` on the other items (a Welch t test, Welch 1947;
    ``p_value`` Bonferroni-adjusted over all the annotator's ``slice_bias`` tests). Flagged
    when the adjusted ``p < ALPHA`` and ``|slice_bias| >= MIN_SLICE_SHIFT``.

Scale use
    ``scale_extremes_share``: share of the annotator's Likert ratings at either end of the
    scale. Flagged when below ``EXTREMES_RATIO`` (1/4) times the median share of the other
    raters (the median, so one rater who always answers 5 does not set the bar), when that
    median is at least ``EXTREMES_MIN_OTHERS`` (10%) and the annotator gave at least
    :data:`MIN_N` ratings: someone who (almost) never uses the ends.

Agreement per category (``annotator_id = *``)
    ``category_agreement``: Krippendorff's alpha (ordinal for Likert, nominal otherwise;
    Krippendorff 2011) of each field, and of each field on the items of each slice value
    with a 95% bootstrap interval over items (Hayes & Krippendorff 2007); no flag, since
    alpha also drops where items vary less. ``category_disagreement``: the mean over items
    of the mean ``|x_a - x_b|`` over their rater pairs (Likert; for other fields the share
    of pairs that differ). A slice value is flagged when its items' disagreement exceeds the
    other items' by at least :data:`MIN_SLICE_SHIFT` with a Welch t test ``p < ALPHA``,
    Bonferroni-adjusted over every slice value tested in the study, on at least
    :data:`MIN_N` items: raters disagree systematically there. ``target`` is the other
    items' disagreement plus the minimum shift; the interval is that of the difference.

Outlier items
    A Likert item whose ratings span more than two points (``max - min > 2``) is an item
    flag ``outlier_item`` for each of its annotators; ``outlier_share`` is the share of an
    annotator's shared ratings on such items (no flag).

References: Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics
Bulletin, 1, 80-83. Pratt, J. W. (1959). Remarks on zeros and ties in the Wilcoxon signed
rank procedures. JASA, 54, 655-667. Welch, B. L. (1947). The generalization of Student's
problem when several different population variances are involved. Biometrika, 34, 28-35.
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Hayes, A. F., &
Krippendorff, K. (2007). Answering the call for a standard reliability measure for coding
data. Communication Methods and Measures, 1, 77-89.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from raterlab.agreement import AgreementUndefined, bootstrap_ci, krippendorff_alpha
from raterlab.agreement.study import unit_matrix
from raterlab.design.kinds import ordinary
from raterlab.design.rounds import TIEBREAK_ROUND
from raterlab.protocol import Study
from raterlab.quality.calibration import mean_interval
from raterlab.quality.ratings import (
    ALL,
    EVERYONE,
    field_slice,
    key_slice,
    metric,
    rating_fields,
    show,
    slice_keys,
    slice_values,
)

ALPHA = 0.05
LENIENCY_ALPHA = 0.01
MIN_SHIFT = {"likert": 0.4, "binary": 0.04}
MIN_SLICE_SHIFT = {"likert": 0.5, "binary": 0.2}
MIN_N = 10
EXTREMES_RATIO = 0.25
EXTREMES_MIN_OTHERS = 0.10
N_RESAMPLES = 500
OUTLIER_GAP = 2

ITEM = ["task", "item_id", "field"]


def ordinary_ratings(rows: pd.DataFrame) -> pd.DataFrame:
    """Ordinary first-copy ratings (``kind = item``), one per annotator, item and field; a
    third annotator's tie-break ratings (disputed items only) are left out."""
    own = rows[ordinary(rows) & (rows["round"] != TIEBREAK_ROUND)]
    return own.drop_duplicates(["annotator_id", *ITEM])


def differences(rows: pd.DataFrame) -> pd.DataFrame:
    """Ordinary numeric ratings of items others rated too, with ``others`` (their mean),
    ``d`` (rating minus ``others``) and ``n_raters``."""
    own = ordinary_ratings(rows)
    own = own[own["numeric"]].copy()
    own["v"] = own["x"].astype(float)
    grouped = own.groupby(ITEM)["v"]
    total, count = grouped.transform("sum"), grouped.transform("count")
    own["n_raters"] = count
    own = own[count >= 2].copy()
    own["others"] = (total[own.index] - own["v"]) / (count[own.index] - 1)
    own["d"] = own["v"] - own["others"]
    return own


def _pooled(diffs: pd.DataFrame) -> pd.DataFrame:
    """The fields the ``all`` rows pool: Likert, else binary."""
    return diffs[diffs["likert"]] if diffs["likert"].any() else diffs


def _per_item(diffs: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``d`` averaged over the pooled fields of each (annotator, item)."""
    pooled = _pooled(diffs)
    by = ["annotator_id", "task", "item_id"]
    extra = [k for k in keys if k in pooled.columns and k not in by]
    return (
        pooled.groupby(by, dropna=False)
        .agg(d=("d", "mean"), **{k: (k, "first") for k in extra})
        .reset_index()
    )


def _t_test(d: np.ndarray) -> float:
    """Two-sided one-sample t-test p-value of ``mean(d) = 0`` (no variance: 0 or 1)."""
    if len(d) < 2:
        return np.nan
    if np.allclose(d, d[0]):
        return 1.0 if np.isclose(d[0], 0) else 0.0
    return float(stats.ttest_1samp(d, 0.0).pvalue)


def _leniency_row(annotator: str, label: str, d: np.ndarray, scale: str) -> dict:
    """A ``leniency`` row with its raw p-value (adjusted and judged by the caller)."""
    return metric(
        annotator,
        "leniency",
        label,
        float(np.mean(d)),
        len(d),
        target=MIN_SHIFT[scale],
        comparison="|x|<=",
        flagged=False,
        ci=mean_interval(d),
        p_value=_t_test(d),
    )


def _judge_leniency(rows: list[dict]) -> list[dict]:
    """Bonferroni-adjust each row's p-value over the annotators with a row for the same slice
    and flag when ``p < LENIENCY_ALPHA`` and ``|value| >= target``."""
    tests = pd.Series([r["slice"] for r in rows]).value_counts().to_dict()
    for r in rows:
        p = r["p_value"]
        if p == p:
            r["p_value"] = min(1.0, p * tests[r["slice"]])
        r["flagged"] = bool(r["p_value"] < LENIENCY_ALPHA and abs(r["value"]) >= r["target"])
    return rows


def rater_effects(frame: pd.DataFrame, tolerance: float = 1e-10) -> tuple[pd.Series, pd.Series]:
    """The additive rater-effects model ``x_ai = mu_i + b_a + e_ai`` on a sparse design.

    ``frame`` has ``annotator_id``, ``unit`` and ``v``. Alternating least squares (each
    unit's mean given the effects, each rater's mean residual given the unit means) until
    the effects stop moving, with the effects centred on their median: the median rater is
    the reference, which a minority of biased raters cannot move. Returns the effects ``b``
    and each rating's residual ``r = x - mu_i``, whose mean over a rater's units is ``b_a``.
    """
    rater_codes, rater_names = pd.factorize(frame["annotator_id"], sort=True)
    unit_codes, _ = pd.factorize(frame["unit"])
    v = frame["v"].to_numpy(dtype=float)
    per_rater = np.bincount(rater_codes)
    per_unit = np.bincount(unit_codes)

    def unit_means(b: np.ndarray) -> np.ndarray:
        return np.bincount(unit_codes, weights=v - b[rater_codes]) / per_unit

    b = np.zeros(len(rater_names))
    for _ in range(200):
        new = np.bincount(rater_codes, weights=v - unit_means(b)[unit_codes]) / per_rater
        new -= np.median(new)
        done = bool(np.abs(new - b).max() < tolerance)
        b = new
        if done:
            break
    residual = v - unit_means(b)[unit_codes]
    return pd.Series(b, index=pd.Index(rater_names)), pd.Series(residual, index=frame.index)


def leniency_metrics(study: Study, diffs: pd.DataFrame) -> list[dict]:
    """``leniency`` per annotator: ``all`` and per field (see the module docstring)."""
    out = []
    rows = diffs.assign(unit=diffs["task"] + "|" + diffs["item_id"] + "|" + diffs["field"])
    pooled = _pooled(rows)
    _, residual = rater_effects(pooled)
    per_item = pooled.assign(r=residual).groupby(["annotator_id", "task", "item_id"])["r"].mean()
    scale = "likert" if diffs["likert"].any() else "binary"
    for annotator, r in per_item.groupby(level="annotator_id", sort=True):
        out.append(_leniency_row(annotator, ALL, r.to_numpy(), scale))
    for (task, field), part in rows.groupby(["task", "field"], sort=True):
        scale = "likert" if part["likert"].iloc[0] else "binary"
        _, residual = rater_effects(part)
        for annotator, r in residual.groupby(part["annotator_id"], sort=True):
            out.append(
                _leniency_row(annotator, field_slice(study, task, field), r.to_numpy(), scale)
            )
    return _judge_leniency(out)


def mean_ratings(study: Study, rows: pd.DataFrame) -> list[dict]:
    """``mean_rating`` per annotator, field, and field x slice value (no flag)."""
    own = ordinary_ratings(rows)
    own = own[own["numeric"]].copy()
    own["v"] = own["x"].astype(float)
    keys = slice_keys(study, own, with_task=False)
    out = []
    for (annotator, task, field), part in own.groupby(["annotator_id", "task", "field"], sort=True):
        out.append(
            metric(
                annotator,
                "mean_rating",
                field_slice(study, task, field),
                part["v"].mean(),
                len(part),
            )
        )
        v = part["v"].to_numpy(dtype=float)
        for key in keys:
            for value, mask in slice_values(part, key):
                sub = v[mask]
                label = field_slice(study, task, field, **{key: value})
                out.append(metric(annotator, "mean_rating", label, _mean(sub), len(sub)))
    return out


def _mean(values: np.ndarray) -> float:
    """The mean of ``values`` without their NaNs (``Series.mean``'s), NaN when none is left."""
    kept = values[~np.isnan(values)]
    return float(kept.mean()) if len(kept) else np.nan


def _welch(inside: np.ndarray, outside: np.ndarray) -> tuple[float, float, tuple]:
    """Difference of means, Welch p-value and 95% interval (Welch-Satterthwaite df). With no
    variance on either side any difference is certain (p = 0), none is p = 1."""
    diff = float(inside.mean() - outside.mean())
    v1, v2 = inside.var(ddof=1) / len(inside), outside.var(ddof=1) / len(outside)
    se = float(np.sqrt(v1 + v2))
    if se == 0:
        return diff, (1.0 if diff == 0 else 0.0), (diff, diff)
    df = (v1 + v2) ** 2 / (v1**2 / (len(inside) - 1) + v2**2 / (len(outside) - 1))
    p = float(2 * stats.t.sf(abs(diff) / se, df))
    half = float(stats.t.ppf(0.975, df)) * se
    return diff, p, (diff - half, diff + half)


def slice_bias_metrics(study: Study, diffs: pd.DataFrame) -> list[dict]:
    """``slice_bias`` per annotator, field (and ``all``) and slice value."""
    found = []
    pooled_keys = slice_keys(study, diffs)
    field_keys = slice_keys(study, diffs, with_task=False)
    items = _per_item(diffs, pooled_keys)
    scale_all = "likert" if diffs["likert"].any() else "binary"
    groups = [
        (annotator, None, None, scale_all, pooled_keys, part)
        for annotator, part in items.groupby("annotator_id", sort=True)
    ]
    groups += [
        (annotator, task, field, "likert" if part["likert"].iloc[0] else "binary", field_keys, part)
        for (annotator, task, field), part in diffs.groupby(
            ["annotator_id", "task", "field"], sort=True
        )
    ]
    for annotator, task, field, scale, keys, part in groups:
        d = part["d"].to_numpy(dtype=float)
        for key in keys:
            values = slice_values(part, key)
            if len(values) < 2:
                continue
            keyed = part[key].notna().to_numpy()
            for value, mask in values:
                inside, outside = d[mask], d[~mask & keyed]
                if len(inside) < 2 or len(outside) < 2:
                    continue
                diff, p, ci = _welch(inside, outside)
                label = (
                    key_slice(**{key: value})
                    if field is None
                    else field_slice(study, task, field, **{key: value})
                )
                found.append((annotator, label, diff, len(inside), p, ci, scale))
    tests = pd.Series([f[0] for f in found]).value_counts().to_dict()
    out = []
    for annotator, label, diff, n, p, ci, scale in found:
        adjusted = min(1.0, p * tests[annotator])
        flagged = adjusted < ALPHA and abs(diff) >= MIN_SLICE_SHIFT[scale] and n >= MIN_N
        out.append(
            metric(
                annotator,
                "slice_bias",
                label,
                diff,
                n,
                target=MIN_SLICE_SHIFT[scale],
                comparison="|x|<=",
                flagged=flagged,
                ci=ci,
                p_value=adjusted,
            )
        )
    return out


def scale_use_metrics(study: Study, rows: pd.DataFrame) -> list[dict]:
    """``scale_extremes_share`` per annotator, Likert field and ``all``."""
    fields = rating_fields(study)
    own = ordinary_ratings(rows)
    own = own[own["likert"]].copy()
    if own.empty:
        return []
    ends = [
        (fields[(t, f)].spec.min, fields[(t, f)].spec.max)
        for t, f in zip(own["task"], own["field"], strict=True)
    ]
    v = own["x"].astype(float).to_numpy()
    own["extreme"] = (v == np.array([e[0] for e in ends])) | (v == np.array([e[1] for e in ends]))
    parts = [(ALL, own)] + [
        (field_slice(study, t, f), part)
        for (t, f), part in own.groupby(["task", "field"], sort=True)
    ]
    out = []
    for label, part in parts:
        shares = part.groupby("annotator_id", sort=True)["extreme"].mean()
        for annotator, mine in part.groupby("annotator_id", sort=True):
            others = shares.drop(annotator)
            share_others = float(others.median()) if len(others) else np.nan
            judged = share_others >= EXTREMES_MIN_OTHERS and len(mine) >= MIN_N
            out.append(
                metric(
                    annotator,
                    "scale_extremes_share",
                    label,
                    mine["extreme"].mean(),
                    len(mine),
                    target=EXTREMES_RATIO * share_others if judged else np.nan,
                    comparison=">=" if judged else "",
                )
            )
    return out


def _alpha(part: pd.DataFrame, likert: bool, interval: bool = False) -> tuple[float, int, tuple]:
    """Alpha of one field's ratings, its number of pairable items and, if asked, its 95%
    bootstrap interval (resampling items)."""
    matrix = unit_matrix(part, "item_id", "x")
    matrix = matrix[matrix.notna().sum(axis=1) >= 2]
    none = (np.nan, np.nan)
    if len(matrix) < 2:
        return np.nan, len(matrix), none
    level = "ordinal" if likert else "nominal"
    values = matrix.to_numpy(dtype=object)
    try:
        alpha = float(krippendorff_alpha(values, level=level))
        if not interval:
            return alpha, len(matrix), none
        result = bootstrap_ci(
            values, "krippendorff_alpha", n_resamples=N_RESAMPLES, seed=0, level=level
        )
        return alpha, len(matrix), (result.low, result.high)
    except (AgreementUndefined, ValueError):
        return np.nan, len(matrix), none


def item_disagreement(part: pd.DataFrame, likert: bool) -> pd.Series:
    """Per item rated by two or more: the mean over rater pairs of ``|x_a - x_b|`` (Likert)
    or of ``x_a != x_b`` (binary, categorical)."""
    matrix = unit_matrix(part, "item_id", "x")
    values = matrix.to_numpy(dtype=object)
    rated = pd.notna(values)
    keep = rated.sum(axis=1) >= 2
    total = np.zeros(len(matrix))
    pairs = np.zeros(len(matrix))
    for a, b in combinations(range(values.shape[1]), 2):
        both = rated[:, a] & rated[:, b]
        if not both.any():
            continue
        x, y = values[both, a], values[both, b]
        gap = np.abs(x.astype(float) - y.astype(float)) if likert else (x != y).astype(float)
        total[both] += gap
        pairs[both] += 1
    return pd.Series(total[keep] / pairs[keep], index=matrix.index[keep], dtype=float)


def category_agreement(study: Study, rows: pd.DataFrame) -> list[dict]:
    """``category_agreement`` and ``category_disagreement`` (annotator ``*``) per field and
    field x slice value (see the module docstring)."""
    own = ordinary_ratings(rows)
    keys = slice_keys(study, own, with_task=False)
    # the columns read: each group is a copy (at 100,000 items the rows hold 20 columns)
    own = own[
        list(dict.fromkeys(["task", "field", "item_id", "annotator_id", "x", "likert", *keys]))
    ]
    out, tests = [], []
    for (task, field), part in own.groupby(["task", "field"], sort=True):
        likert = bool(part["likert"].iloc[0])
        overall, n, _ = _alpha(part, likert)
        per_item = item_disagreement(part, likert)
        label = field_slice(study, task, field)
        if overall == overall:
            out.append(metric(EVERYONE, "category_agreement", label, overall, n))
        if len(per_item):
            out.append(
                metric(EVERYONE, "category_disagreement", label, per_item.mean(), len(per_item))
            )
        item_keys = part.drop_duplicates("item_id").set_index("item_id")
        for key in keys:
            # a slice key is an item's attribute: the items of a slice are those of its rows
            of_item = item_keys[key].reindex(per_item.index)
            item_text = of_item.map(lambda v: None if v is None or v != v else str(v))
            keyed = of_item.notna().to_numpy()
            for value, mask in slice_values(part, key):
                label = field_slice(study, task, field, **{key: value})
                alpha, n, ci = _alpha(part[mask], likert, interval=True)
                if alpha == alpha:
                    out.append(metric(EVERYONE, "category_agreement", label, alpha, n, ci=ci))
                at = (item_text == value).to_numpy()
                inside = per_item[at].to_numpy()
                outside = per_item[~at & keyed].to_numpy()
                if len(inside) < 2 or len(outside) < 2:
                    continue
                diff, p, interval = _welch(inside, outside)
                scale = "likert" if likert else "binary"
                tests.append((label, float(inside.mean()), len(inside), diff, p, interval, scale))
    for label, value, n, diff, p, interval, scale in tests:
        adjusted = min(1.0, p * len(tests))
        flagged = adjusted < ALPHA and diff >= MIN_SLICE_SHIFT[scale] and n >= MIN_N
        out.append(
            metric(
                EVERYONE,
                "category_disagreement",
                label,
                value,
                n,
                target=value - diff + MIN_SLICE_SHIFT[scale],
                comparison="<=",
                flagged=flagged,
                ci=interval,
                p_value=adjusted,
            )
        )
    return out


def outliers(rows: pd.DataFrame) -> tuple[list[dict], list[dict]]:
    """``outlier_share`` metrics and ``outlier_item`` flags (Likert spread > 2 points)."""
    own = ordinary_ratings(rows)
    own = own[own["likert"]].copy()
    own["v"] = own["x"].astype(float)
    spread = own.groupby(ITEM)["v"]
    own["n_raters"] = spread.transform("count")
    own["spread"] = spread.transform("max") - spread.transform("min")
    shared = own[own["n_raters"] >= 2]
    shared = shared.assign(outlier=shared["spread"] > OUTLIER_GAP)
    metrics = [
        metric(annotator, "outlier_share", ALL, part["outlier"].mean(), len(part))
        for annotator, part in shared.groupby("annotator_id", sort=True)
    ]
    flags = []
    bad = shared[shared["outlier"]]
    for (task, item), part in bad.groupby(["task", "item_id"], sort=True):
        detail = "; ".join(
            f"{field}: "
            + ", ".join(f"{a} {show(v)}" for a, v in zip(p["annotator_id"], p["v"], strict=True))
            for field, p in part.sort_values(["annotator_id", "v"]).groupby("field", sort=True)
        )
        flags += [
            {
                "annotator_id": a,
                "task": task,
                "item_id": item,
                "flag": "outlier_item",
                "detail": detail,
            }
            for a in sorted(part["annotator_id"].unique())
        ]
    return metrics, flags


def bias_metrics(study: Study, rows: pd.DataFrame) -> tuple[list[dict], list[dict]]:
    """Every bias row of ``gold.rater_quality`` and the ``outlier_item`` flags."""
    diffs = differences(rows)
    out = mean_ratings(study, rows)
    if len(diffs):
        out += leniency_metrics(study, diffs)
        out += slice_bias_metrics(study, diffs)
    out += scale_use_metrics(study, rows)
    out += category_agreement(study, rows)
    outlier_metrics, flags = outliers(rows)
    return out + outlier_metrics, flags
