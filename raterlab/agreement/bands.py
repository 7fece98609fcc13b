"""Verbal interpretation bands for agreement coefficients.

Bands are conventions, not statistics: report the coefficient and its interval alongside.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

__all__ = [
    "KOO_LI_BANDS",
    "KRIPPENDORFF_BANDS",
    "LANDIS_KOCH_BANDS",
    "apply_bands",
    "conventional_band",
    "landis_koch_band",
]

Bands = Sequence[tuple[float, str]]

# Landis & Koch (1977), Table 1, for kappa-type statistics; bounds on two-decimal values.
LANDIS_KOCH_BANDS: Bands = (
    (-math.inf, "poor"),
    (0.0, "slight"),
    (0.21, "fair"),
    (0.41, "moderate"),
    (0.61, "substantial"),
    (0.81, "almost perfect"),
)

# Krippendorff (2004, p. 241): rely on alpha >= .800, tentative conclusions from .667.
KRIPPENDORFF_BANDS: Bands = (
    (-math.inf, "unreliable"),
    (0.667, "tentative"),
    (0.8, "reliable"),
)

# Koo & Li (2016, p. 161) for the ICC: below .50 poor, .50-.75 moderate, .75-.90 good, above
# .90 excellent.
KOO_LI_BANDS: Bands = (
    (-math.inf, "poor"),
    (0.5, "moderate"),
    (0.75, "good"),
    (0.9, "excellent"),
)


def apply_bands(value: float, bands: Bands) -> str:
    """The label of the band that holds ``value``: the last whose lower bound is <= value.

    ``bands`` is a study's own list of ``(lower bound, label)`` pairs in increasing order of
    bound, e.g. ``[(-inf, "fail"), (0.667, "pilot only"), (0.8, "pass")]``. A value below the
    first bound is an error, not silently the first label: start with ``-inf`` to cover all.
    """
    value = float(value)
    if math.isnan(value):
        raise ValueError("cannot band NaN")
    bounds = [float(lower) for lower, _ in bands]
    if not bounds:
        raise ValueError("bands must be a non-empty list of (lower bound, label) pairs")
    if any(later <= earlier for earlier, later in itertools.pairwise(bounds)):
        raise ValueError(f"band lower bounds must increase; got {bounds}")
    if value < bounds[0]:
        raise ValueError(
            f"{value} is below the lowest band ({bounds[0]}); add a band starting at -inf"
        )
    label = bands[0][1]
    for lower, name in bands:
        if value >= lower:
            label = name
    return label


def landis_koch_band(value: float) -> str:
    """Landis & Koch's (1977) label for a kappa-type value.

    < 0 poor, 0-.20 slight, .21-.40 fair, .41-.60 moderate, .61-.80 substantial,
    .81-1 almost perfect; the value is rounded to two decimals first, as in their table.

    Reference: Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. Biometrics, 33, 159-174.
    """
    return apply_bands(round(float(value), 2), LANDIS_KOCH_BANDS)


def conventional_band(coefficient: str, value: float) -> str:
    """The usual verbal band of a coefficient's value, or ``""`` where none is usual.

    Krippendorff's bands for alpha, Koo & Li's for the ICC, Landis & Koch's for the other
    chance-corrected coefficients (kappas, Scott's pi, Gwet's AC1/AC2, Brennan-Prediger);
    none for percent agreement, which is not corrected for chance, or for a NaN.

    Reference: Koo, T. K., & Li, M. Y. (2016). A guideline of selecting and reporting
    intraclass correlation coefficients for reliability research. Journal of Chiropractic
    Medicine, 15(2), 155-163.
    """
    if coefficient == "percent_agreement" or math.isnan(float(value)):
        return ""
    if coefficient == "krippendorff_alpha":
        return apply_bands(value, KRIPPENDORFF_BANDS)
    if coefficient == "icc":
        return apply_bands(value, KOO_LI_BANDS)
    return landis_koch_band(value)
