"""Cross-tabulations and per-category agreement (what a single coefficient hides)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from raterlab.agreement._matrix import AgreementUndefined, as_ratings, natural_key
from raterlab.agreement._stats import divide

__all__ = ["agreement_matrix", "category_agreement"]

_COLLECTIONS = (list, tuple, set, frozenset, np.ndarray)


def agreement_matrix(ratings: object, categories: Sequence[object] | None = None) -> pd.DataFrame:
    """Cross-tabulation of ratings, on the declared scale (unused categories get zeros).

    Two raters: rows are the first rater's categories, columns the second's, cells count
    the units they both rated. More raters: all rater pairs pooled; cell (k, l) counts the
    ordered pairs of ratings (k by one rater, l by another) within the same unit, so the
    matrix is symmetric and sums to ``sum_i r_i (r_i - 1)`` (twice the number of pairs).
    """
    r = as_ratings(ratings, categories)
    r.require_raters("An agreement matrix")
    q = r.n_categories
    if r.n_raters == 2:
        both = r.rated == 2
        a, b = r.codes[both, 0], r.codes[both, 1]
        table = np.bincount(a * q + b, minlength=q * q).reshape(q, q)
        names = (str(r.raters[0]), str(r.raters[1]))
    else:
        counts = r.count_matrix()
        table = (counts.T @ counts - np.diag(counts.sum(axis=0))).astype(np.int64)
        names = ("rating", "other rating")
    return pd.DataFrame(
        table,
        index=pd.Index(r.categories, name=names[0]),
        columns=pd.Index(r.categories, name=names[1]),
    )


def _label_counts(
    ratings: object, categories: Sequence[object] | None
) -> tuple[list[object], np.ndarray, np.ndarray]:
    """Labels, ``x[i, k]`` raters giving unit i label k, and ``r[i]`` raters rating unit i."""
    frame = ratings if isinstance(ratings, pd.DataFrame) else pd.DataFrame(ratings)
    cells = frame.to_numpy(dtype=object)
    multilabel = np.frompyfunc(lambda v: isinstance(v, _COLLECTIONS), 1, 1)(cells).astype(bool)
    if not multilabel.any():
        r = as_ratings(frame, categories)
        return list(r.categories), r.count_matrix(), r.rated.astype(float)
    present = multilabel | ~pd.isna(np.where(multilabel, 0, cells))
    if (present & ~multilabel).any():
        raise ValueError(
            "multilabel ratings must hold a collection (list, tuple or set) in every rated "
            "cell; use an empty list for 'no label'"
        )
    seen = {label for cell in cells[multilabel] for label in cell}
    labels = list(categories) if categories is not None else sorted(seen, key=natural_key)
    unknown = seen - set(labels)
    if unknown:
        raise ValueError(f"labels not among the declared categories: {sorted(map(str, unknown))}")
    position = {label: k for k, label in enumerate(labels)}
    x = np.zeros((cells.shape[0], len(labels)))
    for i, j in zip(*np.nonzero(multilabel), strict=True):
        for label in set(cells[i, j]):
            x[i, position[label]] += 1
    return labels, x, present.sum(axis=1).astype(float)


def category_agreement(ratings: object, categories: Sequence[object] | None = None) -> pd.DataFrame:
    r"""Agreement on each category (single-label fields) or each label (multilabel fields).

    Each category k is read as a binary question "is it k?": ``x_i`` raters said yes and
    ``y_i = r_i - x_i`` said no on unit i. Over units with two or more ratings:

    * ``positive_agreement`` = :math:`\sum_i x_i (x_i - 1) / \sum_i x_i (r_i - 1)`, the
      proportion of specific agreement (Uebersax 1982); for two raters ``2a / (2a + b + c)``,
      the positive agreement of Cicchetti & Feinstein (1990).
    * ``negative_agreement``: the same for "no" (``y`` in place of ``x``).
    * ``kappa``: Fleiss' kappa of the binary question, Fleiss' (1971) category-specific kappa,
      with missing ratings handled as in :func:`fleiss_kappa`.
    * ``n_ratings`` (ratings with k) and ``prevalence`` (mean share of k per rated unit).

    ``ratings`` is a units x raters matrix of labels, or, for a multilabel field, of
    collections (list, tuple or set) of labels, an empty one meaning "none of the labels";
    ``None``/NaN is a missing rating. Entries are NaN where they are 0/0: a category
    nobody used has no positive agreement, one everybody used no negative agreement.
    """
    labels, x, rated = _label_counts(ratings, categories)
    if not (rated >= 2).any():
        raise AgreementUndefined("Category agreement needs a unit with two or more ratings.")
    paired = rated >= 2
    r = rated[paired, None]
    yes = x[paired]
    no = r - yes
    positive = divide((yes * (yes - 1)).sum(axis=0), (yes * (r - 1)).sum(axis=0))
    negative = divide((no * (no - 1)).sum(axis=0), (no * (r - 1)).sum(axis=0))
    observed = ((yes * (yes - 1) + no * (no - 1)) / (r * (r - 1))).mean(axis=0)
    prevalence = (x[rated > 0] / rated[rated > 0, None]).mean(axis=0)
    expected = prevalence**2 + (1 - prevalence) ** 2
    return pd.DataFrame(
        {
            "n_ratings": x.sum(axis=0).astype(np.int64),
            "prevalence": prevalence,
            "positive_agreement": positive,
            "negative_agreement": negative,
            "kappa": divide(observed - expected, 1 - expected),
        },
        index=pd.Index(labels, name="category"),
    )
