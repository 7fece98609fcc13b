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
  annotator test (``alt_winning_rate``, ``alt_advantage_probability``; on all units and in
  each slice) where units have ``min_alt_humans`` or more humans, and pairwise judge
  comparisons (``<statistic>_diff`` with ``versus``, a paired-bootstrap interval and
  p-value; Williams' test for ``pearson_diff``).

The human ceiling of a statistic is the mean, over annotators, of that statistic between the
annotator and the aggregate of the *other* annotators (leave one annotator out), with its
interval from the same resamples; ``human_alpha`` is Krippendorff's alpha among the humans
at the field's level of measurement.

Graded fields are :mod:`raterlab.judges.graded`, categorical ones
:mod:`raterlab.judges.categorical`; the rows and the ceiling :mod:`raterlab.judges.rows`;
the humans' aggregates :mod:`raterlab.judges.humans`; the input
:mod:`raterlab.judges.field_input`. This module adds the rows of every field (``valid_rate``,
the alternative annotator test) and puts them together.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from raterlab.judges.categorical import categorical_rows
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.graded import graded_rows
from raterlab.judges.humans import missing
from raterlab.judges.rows import ALL, COLUMNS, calibration_row
from raterlab.judges.significance import alt_test, wilson_interval


def _valid_rows(fi: FieldInput, conf: float) -> Iterator[dict]:
    for judge, given in fi.given.items():
        n_given = int(given.sum())
        valid = int((given & ~missing(fi.judges[judge].astype(object))).sum())
        low, high = wilson_interval(valid, n_given, conf)
        yield calibration_row(
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
    # each distinct value looked up once (a Python call per value took 0.23 s a million)
    codes, distinct = pd.factorize(np.asarray(values, dtype=object).ravel())
    looked_up = np.array([index.get(v, np.nan) for v in distinct] + [np.nan])
    return looked_up[codes].reshape(np.shape(values))


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
    """The alternative annotator test of each judge on all units and in each slice (the
    units outside the slice left out; a slice too small for the test has no rows)."""
    humans = _codes(fi.humans, fi.labels)
    for slice_, mask in {ALL: np.ones(fi.units.size, dtype=bool), **fi.slices}.items():
        for judge in fi.judges:
            verdicts = np.where(mask, _alt_verdicts(fi, judge, scoring), np.nan)
            yield from _alt_test_rows(fi, opts, scoring, judge, slice_, humans, verdicts)


def _alt_test_rows(
    fi: FieldInput,
    opts: Options,
    scoring: str,
    judge: str,
    slice_: str,
    humans: np.ndarray,
    verdicts: np.ndarray,
) -> Iterator[dict]:
    """One judge's two rows of the test in one slice (none when no annotator qualifies)."""
    outcome = alt_test(
        humans,
        fi.raters,
        verdicts,
        scoring=scoring,
        epsilon=opts.epsilon,
        min_humans=opts.min_alt_humans,
    )
    if outcome is not None:
        common = {
            "n": outcome.n_instances,
            "n_groups": outcome.n_annotators,
            "label": f"epsilon={outcome.epsilon:g}",
        }
        for statistic, estimate in (
            ("alt_winning_rate", outcome.winning_rate),
            ("alt_advantage_probability", outcome.advantage_probability),
        ):
            yield calibration_row(fi, judge, slice_, "item", statistic, estimate=estimate, **common)


def calibrate_field(fi: FieldInput, opts: Options | None = None) -> pd.DataFrame:
    """Every statistic of every judge on one field (see the module docstring)."""
    opts = opts or Options()
    rows = list(_valid_rows(fi, opts.confidence))
    if fi.judges and fi.humans.size:
        graded = fi.kind == "graded"
        rows += list(graded_rows(fi, opts) if graded else categorical_rows(fi, opts))
        rows += list(_alt_rows(fi, opts, "neg_rmse" if graded else "accuracy"))
    return pd.DataFrame(rows, columns=list(COLUMNS))
