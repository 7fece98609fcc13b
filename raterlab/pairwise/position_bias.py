r"""Position bias: how often an annotator prefers the left response when not calling a tie.

The design draws which system is on the left per rater and item and balances sides across
each rater's packet, so a rater without position bias picks ``left`` in half of their non-tie
choices whatever the systems' strengths: 0.5 is the null. Per annotator and overall
(``annotator_id = 'all'``): the share of ``left`` among non-tie choices, its 95% Wilson
interval, the exact two-sided binomial test against 0.5, and ``p_holm``, the annotators'
p-values Holm-corrected within the field and slice (the overall row keeps its own p-value).
``flagged``: ``p_holm`` < :data:`ALPHA` and the share outside [:data:`LOW`, :data:`HIGH`],
so that a large study does not flag a harmless 0.52.

.. math:: \text{Wilson: } \frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}
   {1 + z^2/n}

References
----------
Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
JASA, 22, 209-212.
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
Journal of Statistics, 6, 65-70.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ALL = "all"
ALPHA = 0.05
LOW, HIGH = 0.4, 0.6
COLUMNS = [
    "annotator_id",
    "n_non_tie",
    "n_left",
    "n_ties",
    "left_share",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "flagged",
]


def _row(annotator: str, choices: pd.Series) -> dict[str, object]:
    n_left = int((choices == "left").sum())
    n = n_left + int((choices == "right").sum())
    low, high = proportion_confint(n_left, n, 1 - 0.95, method="wilson") if n else (np.nan,) * 2
    return {
        "annotator_id": annotator,
        "n_non_tie": n,
        "n_left": n_left,
        "n_ties": int((choices == "tie").sum()),
        "left_share": n_left / n if n else np.nan,
        "ci_low": low,
        "ci_high": high,
        "p_value": binomtest(n_left, n, 0.5).pvalue if n else np.nan,
    }


def position_bias(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per annotator of ``rows`` (comparisons with ``choice`` as seen) and one
    ``annotator_id = 'all'`` over everyone (see the module's definitions)."""
    rows = rows.astype({"annotator_id": str})
    annotators = pd.DataFrame(
        [_row(a, group["choice"]) for a, group in rows.groupby("annotator_id", sort=True)],
        columns=COLUMNS[:-2],
    )
    tested = annotators["p_value"].notna()
    annotators["p_holm"] = np.nan
    if tested.any():
        annotators.loc[tested, "p_holm"] = multipletests(
            annotators.loc[tested, "p_value"], method="holm"
        )[1]
    overall = pd.DataFrame([_row(ALL, rows["choice"])])
    overall["p_holm"] = overall["p_value"]
    table = pd.concat([annotators, overall], ignore_index=True)
    share = table["left_share"]
    table["flagged"] = (table["p_holm"] < ALPHA) & ((share < LOW) | (share > HIGH))
    return table[COLUMNS]
