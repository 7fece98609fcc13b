"""Calibration of a graded (Likert, numeric) field: Pearson, Spearman and Kendall's tau-b
against the humans' mean (or median) at the item, group and system levels, and the bias."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pandas as pd

from raterlab.judges import resample
from raterlab.judges.contingency import CORRELATIONS
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.humans import aggregate, human_alpha, without
from raterlab.judges.resample import correlation_consumer, point_correlations
from raterlab.judges.rows import (
    ALL,
    calibration_row,
    comparisons,
    human_ceiling,
    interval_values,
    system_bias,
    with_ceiling,
)
from raterlab.judges.significance import williams_test


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
    alpha = human_alpha(fi.humans[mask], fi.alpha_level)
    pairs = {j: np.where(mask, v.astype(float), np.nan) for j, v in fi.judges.items()}
    loo = {r: (np.where(mask, fi.humans[:, i], np.nan), others[i]) for i, r in enumerate(fi.raters)}
    consumers, cells = [], 1
    for x, y in [*((x, human) for x in pairs.values()), *loo.values()]:
        consumer, size = correlation_consumer(x, y)
        consumers.append(consumer)
        cells = max(cells, size)
    consumers += [resample.mean_consumer(x - human) for x in pairs.values()]
    results = resample.run(human.size, consumers, opts.resamples, opts.seed, cells)
    judge_reps = dict(zip(pairs, results[: len(pairs)], strict=True))
    rater_reps = results[len(pairs) : len(pairs) + len(loo)]
    bias_reps = results[len(pairs) + len(loo) :]
    ceilings = {s: human_ceiling([r[s] for r in rater_reps]) for s in CORRELATIONS}
    for judge, x in pairs.items():
        n = int((~(np.isnan(x) | np.isnan(human))).sum())
        for stat in CORRELATIONS:
            values = interval_values(judge_reps[judge][stat], opts.confidence)
            values = with_ceiling(values, ceilings[stat], alpha, opts.confidence)
            yield calibration_row(fi, judge, slice_, "item", stat, n=n, **values)
    for (judge, x), rep in zip(pairs.items(), bias_reps, strict=True):
        n = int((~(np.isnan(x) | np.isnan(human))).sum())
        values = interval_values(rep["mean"], opts.confidence)
        yield calibration_row(fi, judge, slice_, "item", "bias", n=n, **values)
    if slice_ == ALL:
        williams = _williams(fi, human, mask)
        yield from comparisons(
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
    ceilings = {s: human_ceiling([r[s] for r in results[len(pairs) :]]) for s in CORRELATIONS}
    for judge, x in pairs.items():
        valid = ~(np.isnan(x) | np.isnan(human))
        n = int(np.unique(codes[valid]).size)
        for stat in CORRELATIONS:
            values = interval_values(judge_reps[judge][stat], opts.confidence)
            values = with_ceiling(values, ceilings[stat], float("nan"), opts.confidence)
            yield calibration_row(fi, judge, ALL, "system", stat, n=n, **values)
    yield from comparisons(fi, ALL, "system", judge_reps, CORRELATIONS, opts.confidence)


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
        for stat, value in point_correlations(x[at], y[at]).items():
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
    ceilings = {s: human_ceiling([r[s] for r in reps[len(pairs) :]]) for s in CORRELATIONS}
    for (judge, _), est in zip(pairs.items(), estimates, strict=False):
        for stat in CORRELATIONS:
            defined = np.isfinite(est["values"][stat])
            values = interval_values(judge_reps[judge][stat], opts.confidence)
            values = with_ceiling(values, ceilings[stat], float("nan"), opts.confidence)
            yield calibration_row(
                fi,
                judge,
                ALL,
                "group",
                stat,
                n=int(est["sizes"][defined].sum()),
                n_groups=int(defined.sum()),
                **values,
            )
    yield from comparisons(fi, ALL, "group", judge_reps, CORRELATIONS, opts.confidence)


def graded_rows(fi: FieldInput, opts: Options) -> Iterator[dict]:
    """The rows of a graded field: every slice at the item level, then the group and system
    levels the options ask for, with the bias per system."""
    human = aggregate(fi.humans, opts.aggregate)
    others = [aggregate(without(fi.humans, i), opts.aggregate) for i in range(len(fi.raters))]
    for slice_, mask in {ALL: np.ones(fi.units.size, dtype=bool), **fi.slices}.items():
        yield from _graded_slice(fi, opts, slice_, mask, human, others)
    if "group" in opts.levels and fi.groups is not None:
        yield from _graded_group(fi, opts, human, others)
    if "system" in opts.levels and fi.systems is not None:
        yield from _graded_system(fi, opts, human, others)
        diffs = {(j, None): v.astype(float) - human for j, v in fi.judges.items()}
        yield from system_bias(fi, opts, diffs)
