"""Agreement between raters on the same pair, on the canonical 3-way choice (``a``: the
pair's ``system_a`` preferred, ``b``, ``tie``), whatever side each rater saw it on.

The units are the pair items (``item_id``), the raters the annotators; the coefficients are
those :mod:`raterlab.agreement` reports for a nominal field (percent agreement, Cohen's kappa
for two raters or Fleiss' kappa for more, Krippendorff's alpha, Gwet's AC1), with 95%
percentile bootstrap intervals over pairs (:func:`raterlab.agreement.by_field.agreement_table`;
formulas and references in ``docs/agreement.md``)."""

from __future__ import annotations

import pandas as pd

from raterlab.agreement.by_field import agreement_table
from raterlab.pairwise.comparisons import OUTCOMES

COLUMNS = [
    "coefficient",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "n_units",
    "n_raters",
    "note",
]


def choice_matrix(rows: pd.DataFrame) -> pd.DataFrame:
    """Pairs x annotators of the canonical outcome (``gold.pairwise_comparisons`` holds one
    rating per pair and annotator; of several, the last row counts)."""
    return rows.pivot_table(
        index="item_id", columns="annotator_id", values="outcome", aggfunc="last"
    )


def pair_agreement(
    rows: pd.DataFrame, field: str, n_resamples: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """One row per coefficient on ``rows`` (counted comparisons of ``field`` with
    ``outcome``); an undefined coefficient (no pair rated twice, one outcome only) has no
    estimate and says why in ``note``."""
    table = agreement_table(
        {field: choice_matrix(rows)},
        level="nominal",
        categories=list(OUTCOMES),
        ci=True,
        n_resamples=n_resamples,
        seed=seed,
    )
    return table[COLUMNS]
