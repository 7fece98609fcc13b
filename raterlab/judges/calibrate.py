"""Judge calibration of one rating field: every judge against the humans, beside the humans'
own ceiling, with bootstrap intervals from one shared set of resamples.

Input is a :class:`FieldInput` (units x raters human matrix, one verdict vector per judge);
output is long rows (:data:`COLUMNS`), one per judge, slice, level and statistic:

- graded fields: ``pearson``, ``spearman``, ``kendall`` (tau-b) against the mean (or median)
  human score at levels ``item`` (units pooled), ``group`` (within each group, averaged over
  the groups where defined; ``n_groups`` kept) and ``system`` (per-system means); ``bias``
  (mean judge minus mean human score);
- categorical and binary fields: ``kappa`` (Cohen) and ``accuracy`` against the majority
  human label (units whose humans tie are left out and counted as ``human_ties``),
  ``precision``/``recall`` per label, ``confusion`` counts (``label`` = ``judge|human``),
  ``bias`` per label (judge share minus human share), ``brier`` and ``ece`` where the judge
  gives a confidence;
- every field: ``valid_rate`` (parseable verdicts among those given), the alternative
  annotator test (``alt_winning_rate``, ``alt_advantage_probability``) where units have
  ``min_alt_humans`` or more humans, and pairwise judge comparisons (``<statistic>_diff`` with
  ``versus``, a paired-bootstrap interval and p-value; Williams' test for ``pearson_diff``).

The human ceiling of a statistic is the mean, over annotators, of that statistic between the
annotator and the aggregate of the *other* annotators (leave one annotator out), with its
interval from the same resamples; ``human_alpha`` is Krippendorff's alpha among the humans
at the field's level of measurement.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

from raterlab.agreement import AgreementUndefined, krippendorff_alpha
from raterlab.judges import resample
from raterlab.judges.resample import Consumer, Replicates
from raterlab.judges.significance import (
    alt_test,
    paired_bootstrap_p,
    williams_test,
    wilson_interval,
)
from raterlab.judges.tables import (
    CORRELATIONS,
    MAX_CELLS,
    Tabulated,
    snap,
    table_correlations,
    table_kappa,
    tabulate_labels,
    tabulate_numeric,
)

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
KAPPA = ("kappa", "accuracy")
ECE_BINS = 10


@dataclass
class Options:
    """How to compute: aggregate of the humans, resamples, coverage, seed, alt-test margin."""

    aggregate: Literal["mean", "median"] = "mean"
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    epsilon: float = 0.2
    min_alt_humans: int = 2
    """Humans an item needs for the alternative annotator test: the authors' default, 2 (the
    left-out annotator and one other; their FAQ recommends three or more annotators)."""
    levels: tuple[str, ...] = ("item", "group", "system")


@dataclass
class FieldInput:
    """One rating field: the humans' ratings and each judge's verdicts, on the same units.

    ``humans`` is ``(n_units, n_raters)``: floats with NaN (graded) or objects with None
    (categorical). ``judges[j]`` holds judge j's valid verdict per unit (NaN/None when missing
    or unparseable); ``given[j]`` whether it gave any verdict, ``confidence[j]`` its
    confidence (0-1, NaN when none). ``slices`` maps a slice name to a unit mask.
    """

    field: str
    kind: Literal["graded", "categorical"]
    units: np.ndarray
    raters: list[str]
    humans: np.ndarray
    judges: dict[str, np.ndarray]
    given: dict[str, np.ndarray]
    confidence: dict[str, np.ndarray] = field(default_factory=dict)
    labels: list | None = None
    alpha_level: str = "ordinal"
    groups: np.ndarray | None = None
    systems: np.ndarray | None = None
    slices: dict[str, np.ndarray] = field(default_factory=dict)


def _missing(values: np.ndarray) -> np.ndarray:
    """None or NaN, per value."""
    return pd.isna(np.asarray(values))


def majority(humans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per unit, the most frequent label (``None`` without ratings or on a tie for the top)
    and whether the top was tied."""
    present = ~_missing(humans.ravel()).reshape(humans.shape)
    labels = sorted({str(v) for v in humans[present]})
    index = {label: k for k, label in enumerate(labels)}
    codes = np.full(humans.shape, -1)
    codes[present] = [index[str(v)] for v in humans[present]]
    votes = (codes[:, :, None] == np.arange(len(labels))).sum(axis=1)
    top = votes.max(axis=1, initial=0)
    tied = (top > 0) & ((votes == top[:, None]).sum(axis=1) > 1)
    winners = np.array(labels, dtype=object)[votes.argmax(axis=1)] if labels else None
    out = np.full(humans.shape[0], None, dtype=object)
    if labels:
        keep = (top > 0) & ~tied
        out[keep] = winners[keep]
    return out, tied


def aggregate(humans: np.ndarray, how: str) -> np.ndarray:
    """Mean or median human score per unit (NaN without ratings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # units without ratings: NaN
        return np.nanmedian(humans, axis=1) if how == "median" else np.nanmean(humans, axis=1)


def _without(humans: np.ndarray, rater: int) -> np.ndarray:
    return np.delete(humans, rater, axis=1)


def _alpha(humans: np.ndarray, level: str) -> float:
    try:
        return float(krippendorff_alpha(humans, level=level))
    except (AgreementUndefined, ValueError):
        return float("nan")


# --------------------------------------------------------------------------- consumers
def _repeat_consumer(x: np.ndarray, y: np.ndarray) -> Consumer:
    """Correlations on the repeated data, one resample at a time (tables too large)."""
    valid = ~(np.isnan(x) | np.isnan(y))
    xs, ys = snap(x[valid]), snap(y[valid])

    def consume(counts: np.ndarray) -> dict[str, np.ndarray]:
        out = {name: np.full(counts.shape[0], np.nan) for name in CORRELATIONS}
        for b, row in enumerate(counts[:, valid].astype(int)):
            rx, ry = np.repeat(xs, row), np.repeat(ys, row)
            if rx.size < 2 or np.ptp(rx) == 0 or np.ptp(ry) == 0:
                continue
            out["pearson"][b] = stats.pearsonr(rx, ry).statistic
            out["spearman"][b] = stats.spearmanr(rx, ry).statistic
            out["kendall"][b] = stats.kendalltau(rx, ry).statistic
        return out

    return consume


def _correlation_consumer(x: np.ndarray, y: np.ndarray) -> tuple[Consumer, int]:
    tab = tabulate_numeric(x, y)
    if tab.cells == 0:
        return (lambda counts: {s: np.full(counts.shape[0], np.nan) for s in CORRELATIONS}), 1
    if tab.cells > MAX_CELLS:
        return _repeat_consumer(x, y), 1
    onehot = tab.onehot()
    return (
        lambda counts: table_correlations(tab.tables(counts, onehot), tab.x_values, tab.y_values)
    ), tab.cells


def _kappa_consumer(tab: Tabulated) -> tuple[Consumer, int]:
    if not ((tab.x_codes >= 0) & (tab.y_codes >= 0)).any():
        return (lambda counts: {s: np.full(counts.shape[0], np.nan) for s in KAPPA}), 1
    onehot = tab.onehot()
    return (lambda counts: table_kappa(tab.tables(counts, onehot))), tab.cells


def _point_correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    consumer, _ = _correlation_consumer(x, y)
    return {k: float(v[0]) for k, v in consumer(np.ones((1, x.size))).items()}


# --------------------------------------------------------------------------- rows
def _row(fi: FieldInput, judge: str, slice_: str, level: str, statistic: str, **values) -> dict:
    row = dict.fromkeys(COLUMNS)
    row.update(judge=judge, field=fi.field, slice=slice_, level=level, statistic=statistic)
    row.update(values)
    return row


def _interval_values(rep: Replicates, confidence: float) -> dict:
    low, high = rep.interval(confidence)
    return {"estimate": rep.estimate, "ci_low": low, "ci_high": high}


def _ceiling(reps: list[Replicates]) -> Replicates | None:
    """Mean over annotators of their leave-one-out statistic, per resample."""
    defined = [r for r in reps if np.isfinite(r.estimate)]
    if not defined:
        return None
    stacked = np.vstack([r.replicates for r in defined]) if defined[0].replicates.size else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample where no one is defined
        replicates = np.nanmean(stacked, axis=0) if stacked is not None else np.empty(0)
    return Replicates(float(np.mean([r.estimate for r in defined])), replicates)


def _with_ceiling(values: dict, ceiling: Replicates | None, alpha: float, conf: float) -> dict:
    values["human_alpha"] = alpha
    if ceiling is None:
        return values
    low, high = ceiling.interval(conf)
    values.update(human_ceiling=ceiling.estimate, ceiling_low=low, ceiling_high=high)
    estimate = values.get("estimate")
    if estimate is not None and np.isfinite(estimate) and np.isfinite(low):
        values["within_human_range"] = bool(estimate >= low)
    return values


def _comparisons(
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
            values = _interval_values(diff, conf)
            values["p_value"] = paired_bootstrap_p(diff.replicates)
            if stat == "pearson" and williams and (a, b) in williams:
                values["williams_t"], values["williams_p"] = williams[(a, b)]
            yield _row(fi, a, slice_, level, f"{stat}_diff", versus=b, **values)


def _williams(fi: FieldInput, human: np.ndarray, mask: np.ndarray) -> dict:
    """Williams' test of each judge pair's Pearson r with the humans, on the units all three
    share."""
    out = {}
    for a, b in combinations(sorted(fi.judges), 2):
        x, y = fi.judges[a].astype(float), fi.judges[b].astype(float)
        common = mask & ~(np.isnan(x) | np.isnan(y) | np.isnan(human))
        n = int(common.sum())
        if n < 4:
            continue
        r = np.corrcoef(np.vstack([human[common], x[common], y[common]]))
        out[(a, b)] = williams_test(r[0, 1], r[0, 2], r[1, 2], n)
    return out


def _valid_rows(fi: FieldInput, conf: float) -> Iterator[dict]:
    for judge, given in fi.given.items():
        n_given = int(given.sum())
        valid = int((given & ~_missing(fi.judges[judge].astype(object))).sum())
        low, high = wilson_interval(valid, n_given, conf)
        yield _row(
            fi,
            judge,
            ALL,
            "item",
            "valid_rate",
            n=n_given,
            estimate=valid / n_given if n_given else float("nan"),
            ci_low=low,
            ci_high=high,
        )


def _codes(values: np.ndarray, labels: list | None) -> np.ndarray:
    """Numbers as floats; labels as their position in ``labels`` (NaN when missing)."""
    if labels is None:
        return values.astype(float)
    index = {label: float(i) for i, label in enumerate(labels)}
    return np.vectorize(lambda v: index.get(v, np.nan), otypes=[float])(values)


NO_LABEL = -1.0
"""The code of a categorical verdict that is none of the labels: it equals no human's."""


def _alt_verdicts(fi: FieldInput, judge: str, scoring: str) -> np.ndarray:
    """The judge's verdicts as the alternative annotator test scores them. With ``accuracy``,
    a verdict given but none of the labels is a wrong answer (:data:`NO_LABEL`), as in the
    authors' code, where any LLM answer is compared with the humans'; dropping it would hide
    exactly the instances the judge got wrong."""
    codes = _codes(fi.judges[judge], fi.labels)
    if scoring == "accuracy":
        codes[fi.given[judge] & np.isnan(codes)] = NO_LABEL
    return codes


def _alt_rows(fi: FieldInput, opts: Options, scoring: str) -> Iterator[dict]:
    humans = _codes(fi.humans, fi.labels)
    for judge in fi.judges:
        outcome = alt_test(
            humans,
            fi.raters,
            _alt_verdicts(fi, judge, scoring),
            scoring=scoring,
            epsilon=opts.epsilon,
            min_humans=opts.min_alt_humans,
        )
        if outcome is None:
            continue
        common = {"n": outcome.n_instances, "n_groups": outcome.n_annotators}
        yield _row(
            fi,
            judge,
            ALL,
            "item",
            "alt_winning_rate",
            estimate=outcome.winning_rate,
            label=f"epsilon={outcome.epsilon:g}",
            **common,
        )
        yield _row(
            fi,
            judge,
            ALL,
            "item",
            "alt_advantage_probability",
            estimate=outcome.advantage_probability,
            label=f"epsilon={outcome.epsilon:g}",
            **common,
        )


# --------------------------------------------------------------------------- graded
def _graded_slice(
    fi: FieldInput,
    opts: Options,
    slice_: str,
    mask: np.ndarray,
    human: np.ndarray,
    others: list[np.ndarray],
) -> Iterator[dict]:
    """Item level in one slice: each judge and each left-out annotator (against ``others``,
    the other annotators' aggregate), and the bias."""
    alpha = _alpha(fi.humans[mask], fi.alpha_level)
    pairs = {j: np.where(mask, v.astype(float), np.nan) for j, v in fi.judges.items()}
    loo = {r: (np.where(mask, fi.humans[:, i], np.nan), others[i]) for i, r in enumerate(fi.raters)}
    consumers, cells = [], 1
    for x, y in [*((x, human) for x in pairs.values()), *loo.values()]:
        consumer, size = _correlation_consumer(x, y)
        consumers.append(consumer)
        cells = max(cells, size)
    consumers += [resample.mean_consumer(x - human) for x in pairs.values()]
    results = resample.run(human.size, consumers, opts.resamples, opts.seed, cells)
    judge_reps = dict(zip(pairs, results[: len(pairs)], strict=True))
    rater_reps = results[len(pairs) : len(pairs) + len(loo)]
    bias_reps = results[len(pairs) + len(loo) :]
    ceilings = {s: _ceiling([r[s] for r in rater_reps]) for s in CORRELATIONS}
    for judge, x in pairs.items():
        n = int((~(np.isnan(x) | np.isnan(human))).sum())
        for stat in CORRELATIONS:
            values = _interval_values(judge_reps[judge][stat], opts.confidence)
            values = _with_ceiling(values, ceilings[stat], alpha, opts.confidence)
            yield _row(fi, judge, slice_, "item", stat, n=n, **values)
    for (judge, x), rep in zip(pairs.items(), bias_reps, strict=True):
        n = int((~(np.isnan(x) | np.isnan(human))).sum())
        values = _interval_values(rep["mean"], opts.confidence)
        yield _row(fi, judge, slice_, "item", "bias", n=n, **values)
    if slice_ == ALL:
        williams = _williams(fi, human, mask)
        yield from _comparisons(
            fi, slice_, "item", judge_reps, CORRELATIONS, opts.confidence, williams
        )


def _graded_system(
    fi: FieldInput, opts: Options, human: np.ndarray, others: list[np.ndarray]
) -> Iterator[dict]:
    codes = pd.factorize(pd.Series(fi.systems).fillna("(none)"))[0]
    pairs = {j: v.astype(float) for j, v in fi.judges.items()}
    loo = [(fi.humans[:, i], others[i]) for i in range(len(fi.raters))]
    consumers = [resample.system_consumer(x, human, codes) for x in pairs.values()]
    consumers += [resample.system_consumer(x, y, codes) for x, y in loo]
    results = resample.run(human.size, consumers, opts.resamples, opts.seed, int(codes.max()) + 1)
    judge_reps = dict(zip(pairs, results[: len(pairs)], strict=True))
    ceilings = {s: _ceiling([r[s] for r in results[len(pairs) :]]) for s in CORRELATIONS}
    for judge, x in pairs.items():
        valid = ~(np.isnan(x) | np.isnan(human))
        n = int(np.unique(codes[valid]).size)
        for stat in CORRELATIONS:
            values = _interval_values(judge_reps[judge][stat], opts.confidence)
            values = _with_ceiling(values, ceilings[stat], float("nan"), opts.confidence)
            yield _row(fi, judge, ALL, "system", stat, n=n, **values)
    yield from _comparisons(fi, ALL, "system", judge_reps, CORRELATIONS, opts.confidence)


def _group_estimates(x: np.ndarray, y: np.ndarray, codes: np.ndarray, n_groups: int) -> dict:
    """Each statistic within each group (NaN where undefined)."""
    out = {s: np.full(n_groups, np.nan) for s in CORRELATIONS}
    sizes = np.zeros(n_groups, dtype=int)
    valid = ~(np.isnan(x) | np.isnan(y))
    for g in range(n_groups):
        at = valid & (codes == g)
        sizes[g] = at.sum()
        if sizes[g] < 2:
            continue
        for stat, value in _point_correlations(x[at], y[at]).items():
            out[stat][g] = value
    return {"values": out, "sizes": sizes}


def _graded_group(
    fi: FieldInput, opts: Options, human: np.ndarray, others: list[np.ndarray]
) -> Iterator[dict]:
    codes, uniques = pd.factorize(pd.Series(fi.groups).fillna("(none)"))
    n_groups = len(uniques)
    pairs = {j: v.astype(float) for j, v in fi.judges.items()}
    loo = [(fi.humans[:, i], others[i]) for i in range(len(fi.raters))]
    estimates = [_group_estimates(x, human, codes, n_groups) for x in pairs.values()]
    estimates += [_group_estimates(x, y, codes, n_groups) for x, y in loo]
    consumers = [
        resample.mean_consumer(e["values"][stat]) for e in estimates for stat in CORRELATIONS
    ]
    results = resample.run(n_groups, consumers, opts.resamples, opts.seed)
    reps = [
        {stat: results[i * len(CORRELATIONS) + k]["mean"] for k, stat in enumerate(CORRELATIONS)}
        for i in range(len(estimates))
    ]
    judge_reps = dict(zip(pairs, reps[: len(pairs)], strict=True))
    ceilings = {s: _ceiling([r[s] for r in reps[len(pairs) :]]) for s in CORRELATIONS}
    for (judge, _), est in zip(pairs.items(), estimates, strict=False):
        for stat in CORRELATIONS:
            defined = np.isfinite(est["values"][stat])
            values = _interval_values(judge_reps[judge][stat], opts.confidence)
            values = _with_ceiling(values, ceilings[stat], float("nan"), opts.confidence)
            yield _row(
                fi,
                judge,
                ALL,
                "group",
                stat,
                n=int(est["sizes"][defined].sum()),
                n_groups=int(defined.sum()),
                **values,
            )
    yield from _comparisons(fi, ALL, "group", judge_reps, CORRELATIONS, opts.confidence)


def _graded_rows(fi: FieldInput, opts: Options) -> Iterator[dict]:
    human = aggregate(fi.humans, opts.aggregate)
    others = [aggregate(_without(fi.humans, i), opts.aggregate) for i in range(len(fi.raters))]
    for slice_, mask in {ALL: np.ones(fi.units.size, dtype=bool), **fi.slices}.items():
        yield from _graded_slice(fi, opts, slice_, mask, human, others)
    if "group" in opts.levels and fi.groups is not None:
        yield from _graded_group(fi, opts, human, others)
    if "system" in opts.levels and fi.systems is not None:
        yield from _graded_system(fi, opts, human, others)
        diffs = {(j, None): v.astype(float) - human for j, v in fi.judges.items()}
        yield from _system_bias(fi, opts, diffs)
    yield from _alt_rows(fi, opts, "neg_rmse")


def _system_bias(
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
        values = _interval_values(result["mean"], opts.confidence)
        n = int(((systems == name) & np.isfinite(diffs[(judge, label)])).sum())
        text = name if label is None else f"{name}|{label}"
        yield _row(fi, judge, ALL, "system", "bias", label=text, n=n, **values)


# --------------------------------------------------------------------------- categorical
def _calibration_error(confidence: np.ndarray, correct: np.ndarray) -> float:
    r"""Expected calibration error with :data:`ECE_BINS` equal-width bins:
    :math:`\sum_b \frac{n_b}{n} |\mathrm{acc}_b - \mathrm{conf}_b|` (Guo et al. 2017)."""
    bins = np.minimum((confidence * ECE_BINS).astype(int), ECE_BINS - 1)
    total = 0.0
    for b in np.unique(bins):
        at = bins == b
        total += at.mean() * abs(correct[at].mean() - confidence[at].mean())
    return float(total)


def _label_differences(tab: Tabulated, labels: list) -> dict:
    """Per label, ``1[judge says it] - 1[humans say it]`` on each complete unit (NaN else)."""
    complete = (tab.x_codes >= 0) & (tab.y_codes >= 0)
    return {
        label: np.where(complete, (tab.x_codes == k) * 1.0 - (tab.y_codes == k), np.nan)
        for k, label in enumerate(labels)
    }


def _categorical_slice(
    fi: FieldInput,
    opts: Options,
    slice_: str,
    mask: np.ndarray,
    human: np.ndarray,
    others: list[np.ndarray],
) -> Iterator[dict]:
    """Item level in one slice: each judge and each left-out annotator (against ``others``,
    the other annotators' majority), per-label precision, recall and bias, Brier and ECE."""
    labels = list(fi.labels or [])
    alpha = _alpha(fi.humans[mask], fi.alpha_level)
    masked_human = np.where(mask, human, None)
    judge_tabs = {j: tabulate_labels(v, masked_human, labels) for j, v in fi.judges.items()}
    loo_tabs = [
        tabulate_labels(np.where(mask, fi.humans[:, i], None), others[i], labels)
        for i in range(len(fi.raters))
    ]
    consumers = [_kappa_consumer(t)[0] for t in [*judge_tabs.values(), *loo_tabs]]
    indicator = {
        (judge, label): diff
        for judge, tab in judge_tabs.items()
        for label, diff in _label_differences(tab, labels).items()
    }
    consumers += [resample.mean_consumer(diff) for diff in indicator.values()]
    results = resample.run(human.size, consumers, opts.resamples, opts.seed, len(labels) ** 2)
    judge_reps = dict(zip(judge_tabs, results[: len(judge_tabs)], strict=True))
    rater_reps = results[len(judge_tabs) : len(judge_tabs) + len(loo_tabs)]
    bias_reps = dict(zip(indicator, results[len(judge_tabs) + len(loo_tabs) :], strict=True))
    ceilings = {s: _ceiling([r[s] for r in rater_reps]) for s in ("kappa", "accuracy")}
    for judge, tab in judge_tabs.items():
        complete = (tab.x_codes >= 0) & (tab.y_codes >= 0)
        n = int(complete.sum())
        for stat in ("kappa", "accuracy"):
            values = _interval_values(judge_reps[judge][stat], opts.confidence)
            values = _with_ceiling(values, ceilings[stat], alpha, opts.confidence)
            yield _row(fi, judge, slice_, "item", stat, n=n, **values)
        table = tab.tables(np.ones((1, tab.n_units)))[0]
        for k, label in enumerate(labels):
            hit = table[k, k]
            for stat, total in (("precision", table[k].sum()), ("recall", table[:, k].sum())):
                yield _row(
                    fi,
                    judge,
                    slice_,
                    "item",
                    stat,
                    label=str(label),
                    n=int(total),
                    estimate=hit / total if total else float("nan"),
                )
            values = _interval_values(bias_reps[(judge, label)]["mean"], opts.confidence)
            yield _row(fi, judge, slice_, "item", "bias", label=str(label), n=n, **values)
            if slice_ == ALL:
                for m, other in enumerate(labels):
                    yield _row(
                        fi,
                        judge,
                        slice_,
                        "item",
                        "confusion",
                        n=n,
                        label=f"{label}|{other}",
                        estimate=float(table[k, m]),
                    )
        conf = fi.confidence.get(judge)
        if conf is not None:
            usable = complete & np.isfinite(conf)
            if usable.any():
                correct = (tab.x_codes[usable] == tab.y_codes[usable]).astype(float)
                c = np.clip(conf[usable], 0, 1)
                brier = resample.run(
                    int(usable.sum()),
                    [resample.mean_consumer((c - correct) ** 2)],
                    opts.resamples,
                    opts.seed,
                )[0]["mean"]
                yield _row(
                    fi,
                    judge,
                    slice_,
                    "item",
                    "brier",
                    n=int(usable.sum()),
                    **_interval_values(brier, opts.confidence),
                )
                yield _row(
                    fi,
                    judge,
                    slice_,
                    "item",
                    "ece",
                    n=int(usable.sum()),
                    estimate=_calibration_error(c, correct),
                )
    if slice_ == ALL:
        yield from _comparisons(fi, slice_, "item", judge_reps, ("kappa",), opts.confidence)


def _categorical_rows(fi: FieldInput, opts: Options) -> Iterator[dict]:
    human, tied = majority(fi.humans)
    for judge in fi.judges:
        yield _row(
            fi,
            judge,
            ALL,
            "item",
            "human_ties",
            n=int((~_missing(human) | tied).sum()),
            estimate=float(tied.sum()),
        )
    others = [majority(_without(fi.humans, i))[0] for i in range(len(fi.raters))]
    for slice_, mask in {ALL: np.ones(fi.units.size, dtype=bool), **fi.slices}.items():
        yield from _categorical_slice(fi, opts, slice_, mask, human, others)
    if "system" in opts.levels and fi.systems is not None:
        labels = list(fi.labels or [])
        diffs = {
            (judge, str(label)): diff
            for judge, verdicts in fi.judges.items()
            for label, diff in _label_differences(
                tabulate_labels(verdicts, human, labels), labels
            ).items()
        }
        yield from _system_bias(fi, opts, diffs)
    yield from _alt_rows(fi, opts, "accuracy")


def calibrate_field(fi: FieldInput, opts: Options | None = None) -> pd.DataFrame:
    """Every statistic of every judge on one field (see the module docstring)."""
    opts = opts or Options()
    rows = list(_valid_rows(fi, opts.confidence))
    if fi.judges and fi.humans.size:
        body = _graded_rows(fi, opts) if fi.kind == "graded" else _categorical_rows(fi, opts)
        rows += list(body)
    return pd.DataFrame(rows, columns=list(COLUMNS))
