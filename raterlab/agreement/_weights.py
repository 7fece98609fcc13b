"""Agreement weights on the declared scale (Gwet 2014, ch. 3; Cicchetti & Allison 1971).

``w[k, l]`` is the credit for ratings k and l (1 on the diagonal). With ``x`` the category
scores (their values, or positions for declared text labels) and ``R = max(x) - min(x)``:

* linear:    ``1 - |x_k - x_l| / R``
* quadratic: ``1 - (x_k - x_l)^2 / R^2``
* ordinal:   ``1 - M_kl / max(M)`` with ``M_kl = C(|k - l| + 1, 2)`` on the ranks k, l
  (Gwet's ordinal weights: only the order of the categories matters).
"""

from __future__ import annotations

import numpy as np

from raterlab.agreement._matrix import Ratings

WEIGHTS = ("linear", "quadratic", "ordinal")


def weight_matrix(weights: str | None, ratings: Ratings, coefficient: str) -> np.ndarray:
    """The ``q x q`` weight matrix; ``None`` gives identity weights (unweighted)."""
    q = ratings.n_categories
    if weights is None:
        return np.eye(q)
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS} or None; got {weights!r}")
    if weights == "ordinal":
        ranks = np.arange(q)
        distance = np.abs(ranks[:, None] - ranks[None, :]) + 1
        m = distance * (distance - 1) / 2
        return 1 - m / m.max() if q > 1 else np.ones((1, 1))
    x = ratings.scale_scores(f"{coefficient} with {weights} weights")
    spread = x.max() - x.min()
    if spread == 0:
        return np.ones((q, q))
    diff = np.abs(x[:, None] - x[None, :]) / spread
    return 1 - diff if weights == "linear" else 1 - diff**2
