"""Calibration of a categorical or binary field: Cohen's kappa and accuracy against the
humans' majority label, precision, recall, bias and confusion per label, Brier score and
expected calibration error where the judge gives a confidence."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from raterlab.judges import resample
from raterlab.judges.contingency import Tabulated, tabulate_labels
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.humans import human_alpha, majority, missing, without
from raterlab.judges.resample import Replicates, kappa_consumer
from raterlab.judges.rows import (
    ALL,
    calibration_row,
    comparisons,
    human_ceiling,
    interval_values,
    system_bias,
    with_ceiling,
)

ECE_BINS = 10


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


@dataclass(frozen=True)
class _SliceDraws:
    """One slice's tables and bootstrap replicates, drawn together so that every judge and
    every left-out annotator is compared on the same resamples."""

    judge_tabs: dict[str, Tabulated]
    """Each judge against the humans' majority label, on the slice."""
    judge_reps: dict[str, dict[str, Replicates]]
    """Each judge's kappa and accuracy."""
    bias_reps: dict[tuple[str, str], dict[str, Replicates]]
    """Each judge's bias on each label (the mean of :func:`_label_differences`)."""
    ceilings: dict[str, Replicates | None]
    """The human ceiling of kappa and of accuracy, from the left-out annotators."""


def _draw_slice(
    fi: FieldInput,
    opts: Options,
    mask: np.ndarray,
    human: np.ndarray,
    others: list[np.ndarray],
    labels: list,
) -> _SliceDraws:
    """Tabulate each judge and each left-out annotator on the slice ``mask`` and run their
    kappa, accuracy and per-label bias on one shared set of resamples."""
    masked_human = np.where(mask, human, None)
    judge_tabs = {j: tabulate_labels(v, masked_human, labels) for j, v in fi.judges.items()}
    loo_tabs = [
        tabulate_labels(np.where(mask, fi.humans[:, i], None), others[i], labels)
        for i in range(len(fi.raters))
    ]
    consumers = [kappa_consumer(t)[0] for t in [*judge_tabs.values(), *loo_tabs]]
    indicator = {
        (judge, label): diff
        for judge, tab in judge_tabs.items()
        for label, diff in _label_differences(tab, labels).items()
    }
    consumers += [resample.mean_consumer(diff) for diff in indicator.values()]
    results = resample.run(human.size, consumers, opts.resamples, opts.seed, len(labels) ** 2)
    rater_reps = results[len(judge_tabs) : len(judge_tabs) + len(loo_tabs)]
    return _SliceDraws(
        judge_tabs=judge_tabs,
        judge_reps=dict(zip(judge_tabs, results[: len(judge_tabs)], strict=True)),
        bias_reps=dict(zip(indicator, results[len(judge_tabs) + len(loo_tabs) :], strict=True)),
        ceilings={s: human_ceiling([r[s] for r in rater_reps]) for s in ("kappa", "accuracy")},
    )


def _label_rows(
    fi: FieldInput,
    opts: Options,
    slice_: str,
    judge: str,
    tab: Tabulated,
    labels: list,
    n: int,
    bias_reps: dict[tuple[str, str], dict[str, Replicates]],
) -> Iterator[dict]:
    """Per label: the judge's precision, recall and bias, and (over all items) its row of the
    confusion table, judge's label ``|`` the humans' label."""
    table = tab.tables(np.ones((1, tab.n_units)))[0]
    for k, label in enumerate(labels):
        hit = table[k, k]
        for stat, total in (("precision", table[k].sum()), ("recall", table[:, k].sum())):
            yield calibration_row(
                fi,
                judge,
                slice_,
                "item",
                stat,
                label=str(label),
                n=int(total),
                estimate=hit / total if total else float("nan"),
            )
        values = interval_values(bias_reps[(judge, label)]["mean"], opts.confidence)
        yield calibration_row(fi, judge, slice_, "item", "bias", label=str(label), n=n, **values)
        if slice_ == ALL:
            for m, other in enumerate(labels):
                yield calibration_row(
                    fi,
                    judge,
                    slice_,
                    "item",
                    "confusion",
                    n=n,
                    label=f"{label}|{other}",
                    estimate=float(table[k, m]),
                )


def _confidence_rows(
    fi: FieldInput, opts: Options, slice_: str, judge: str, tab: Tabulated, complete: np.ndarray
) -> Iterator[dict]:
    """The judge's Brier score (with its interval) and expected calibration error, on the
    complete units where it gave a confidence; nothing when it gave none."""
    conf = fi.confidence.get(judge)
    if conf is None:
        return
    usable = complete & np.isfinite(conf)
    if not usable.any():
        return
    correct = (tab.x_codes[usable] == tab.y_codes[usable]).astype(float)
    c = np.clip(conf[usable], 0, 1)
    brier = resample.run(
        int(usable.sum()),
        [resample.mean_consumer((c - correct) ** 2)],
        opts.resamples,
        opts.seed,
    )[0]["mean"]
    yield calibration_row(
        fi,
        judge,
        slice_,
        "item",
        "brier",
        n=int(usable.sum()),
        **interval_values(brier, opts.confidence),
    )
    yield calibration_row(
        fi,
        judge,
        slice_,
        "item",
        "ece",
        n=int(usable.sum()),
        estimate=_calibration_error(c, correct),
    )


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
    alpha = human_alpha(fi.humans[mask], fi.alpha_level)
    draws = _draw_slice(fi, opts, mask, human, others, labels)
    for judge, tab in draws.judge_tabs.items():
        complete = (tab.x_codes >= 0) & (tab.y_codes >= 0)
        n = int(complete.sum())
        for stat in ("kappa", "accuracy"):
            values = interval_values(draws.judge_reps[judge][stat], opts.confidence)
            values = with_ceiling(values, draws.ceilings[stat], alpha, opts.confidence)
            yield calibration_row(fi, judge, slice_, "item", stat, n=n, **values)
        yield from _label_rows(fi, opts, slice_, judge, tab, labels, n, draws.bias_reps)
        yield from _confidence_rows(fi, opts, slice_, judge, tab, complete)
    if slice_ == ALL:
        yield from comparisons(fi, slice_, "item", draws.judge_reps, ("kappa",), opts.confidence)


def categorical_rows(fi: FieldInput, opts: Options) -> Iterator[dict]:
    """The rows of a categorical field: the humans' ties, then every slice at the item level
    (:func:`_categorical_slice`), then the bias per system."""
    human, tied = majority(fi.humans)
    for judge in fi.judges:
        yield calibration_row(
            fi,
            judge,
            ALL,
            "item",
            "human_ties",
            n=int((~missing(human) | tied).sum()),
            estimate=float(tied.sum()),
        )
    others = [majority(without(fi.humans, i))[0] for i in range(len(fi.raters))]
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
        yield from system_bias(fi, opts, diffs)
