"""Self-consistency: how an annotator rates the hidden duplicate of an item they rated before.

A duplicate pair is the annotator's two ratings of one item in one batch: the copy marked
``kind = duplicate, copy = 1`` and the ordinary rating (``copy = 0``). Per annotator and
field, over the pairs ``(a_i, b_i)``:

- ``duplicate_exact`` = share of pairs with ``a_i == b_i``;
- ``duplicate_within_one`` = share with ``|a_i - b_i| <= 1`` (Likert; ``a_i == b_i`` for
  binary and categorical fields), flagged below ``quality.duplicate_within_one``;
- ``intra_rater_kappa`` = Cohen's kappa between first and second copies, with quadratic
  weights on a Likert scale (Cohen 1968), a test-retest reliability (no flag).

The ``all`` rows pool every (pair, field) comparison of the annotator; a field's row is
judged only with at least ``MIN_FIELD_N`` pairs. A pair more than one
point apart on any field is an item flag ``duplicate_inconsistent``.

Reference: Cohen, J. (1968). Weighted kappa. Psychological Bulletin, 70, 213-220.
"""

from __future__ import annotations

import pandas as pd

from raterlab.agreement import AgreementUndefined, cohen_kappa
from raterlab.design.kinds import ordinary
from raterlab.protocol import Study
from raterlab.quality.ratings import (
    ALL,
    MIN_FIELD_N,
    field_slice,
    metric,
    rating_fields,
    show,
    within_one,
)

PAIR_KEYS = ["annotator_id", "task", "item_id", "batch", "field"]


def duplicate_pairs(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (annotator, item, field) rated twice: ``first`` (copy 0) and ``second``
    (the hidden duplicate), with ``likert``. ``rows`` is :func:`ratings.prepare` output."""
    second = rows[(rows["kind"] == "duplicate") & (rows["copy"] == 1)]
    first = rows[ordinary(rows)]
    pairs = first[[*PAIR_KEYS, "x", "likert"]].merge(
        second[[*PAIR_KEYS, "x"]], on=PAIR_KEYS, suffixes=("_first", "_second")
    )
    pairs = pairs.rename(columns={"x_first": "first", "x_second": "second"})
    pairs["within_one"] = within_one(pairs["first"], pairs["second"], pairs["likert"])
    pairs["exact"] = (pairs["first"] == pairs["second"]).astype(bool)
    return pairs


def _kappa(pairs: pd.DataFrame, info) -> float:
    try:
        matrix = pairs[["first", "second"]].to_numpy(dtype=object)
        return float(cohen_kappa(matrix, weights=info.weights, categories=info.categories))
    except (AgreementUndefined, ValueError):
        return float("nan")


def consistency_metrics(study: Study, pairs: pd.DataFrame) -> list[dict]:
    """``gold.rater_quality`` rows of self-consistency (see the module docstring)."""
    target = study.quality.duplicate_within_one
    fields = rating_fields(study)
    out = []
    for annotator, own in pairs.groupby("annotator_id", sort=True):
        out.append(
            metric(
                annotator,
                "duplicate_within_one",
                ALL,
                own["within_one"].mean(),
                len(own),
                target=target,
                comparison=">=",
            )
        )
        out.append(metric(annotator, "duplicate_exact", ALL, own["exact"].mean(), len(own)))
        for (task, field), part in own.groupby(["task", "field"], sort=True):
            label = field_slice(study, task, field)
            out.append(
                metric(
                    annotator,
                    "duplicate_within_one",
                    label,
                    part["within_one"].mean(),
                    len(part),
                    target=target,
                    comparison=">=",
                    flagged=None if len(part) >= MIN_FIELD_N else False,
                )
            )
            out.append(metric(annotator, "duplicate_exact", label, part["exact"].mean(), len(part)))
            kappa = _kappa(part, fields[(task, field)])
            if kappa == kappa:
                out.append(metric(annotator, "intra_rater_kappa", label, kappa, len(part)))
    return out


def consistency_flags(pairs: pd.DataFrame) -> list[dict]:
    """``duplicate_inconsistent`` item flags: pairs not within one on some field, one flag per
    (annotator, task, item), its fields in order (then their batches)."""
    keys = ["annotator_id", "task", "item_id"]
    off = pairs[~pairs["within_one"]].sort_values([*keys, "field", "batch"])
    text = pd.Series(
        [
            f"{f} {show(a)} then {show(b)}"
            for f, a, b in zip(off["field"], off["first"], off["second"], strict=True)
        ],
        index=off.index,
        dtype=object,
    )
    details = text.groupby([off[k] for k in keys], sort=True).agg("; ".join)
    return [
        {
            "annotator_id": annotator,
            "task": task,
            "item_id": item,
            "flag": "duplicate_inconsistent",
            "detail": detail,
        }
        for (annotator, task, item), detail in details.items()
    ]
