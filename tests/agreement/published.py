"""Published reliability data sets and the values their sources report.

Each data set is a units x raters matrix (NaN = missing) with a comment naming its source.
"""

from __future__ import annotations

import numpy as np

nan = np.nan


def from_table(table: list[list[int]]) -> np.ndarray:
    """Two-rater ratings (categories 1..q) from a contingency table (rows: rater 1)."""
    counts = np.asarray(table)
    pairs = [(i + 1, j + 1) for (i, j), c in np.ndenumerate(counts) for _ in range(c)]
    return np.array(pairs, dtype=float)


def from_distribution(table: list[list[int]]) -> np.ndarray:
    """Raw ratings (categories 1..q) from counts of raters per unit and category."""
    rows = [[k + 1 for k, c in enumerate(row) for _ in range(c)] for row in table]
    return np.array(rows, dtype=float)


# Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability, section C
# ("nominal data, any number of observers, missing data"): observers A-D (columns) x 12 units.
# Published: nominal .743, ordinal .815, interval .849, ratio .797.
KRIPPENDORFF_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
).T
KRIPPENDORFF_2011_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}

# Gwet's irrCAC R package, data set cac.raw4raters: the same ratings, with the lone rating of
# unit 12 given by rater 3 (so rater-specific coefficients differ from the layout above).
# Published in the irrCAC README (kgwet/irrCAC) and its weighting vignette (weights.html).
CAC_RAW4RATERS = np.array(
    [
        [1, 1, nan, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [nan, 5, 5, 5],
        [nan, nan, 1, 1],
        [nan, nan, 3, nan],
    ]
)

# Hayes, A. F., & Krippendorff, K. (2007). Answering the call for a standard reliability
# measure for coding data. Communication Methods and Measures, 1, 77-89. Table 1: tone of 40
# news articles (0-3) by five observers. Published (KALPHA output): ordinal alpha = .7598.
HAYES_KRIPPENDORFF_2007 = np.array(
    [
        [1, 1, 2, nan, 2], [1, 1, 0, 1, nan], [2, 3, 3, 3, nan], [nan, 0, 0, nan, 0],
        [0, 0, 0, nan, 0], [0, 0, 0, nan, 0], [1, 0, 2, nan, 1], [1, nan, 2, 0, nan],
        [2, 2, 2, nan, 2], [2, 1, 1, 1, nan], [nan, 1, 0, 0, nan], [0, 0, 0, 0, nan],
        [1, 2, 2, 2, nan], [3, 3, 2, 2, 3], [1, 1, 1, nan, 1], [1, 1, 1, nan, 1],
        [2, 1, 2, nan, 2], [1, 2, 3, 3, nan], [1, 1, 0, 1, nan], [0, 0, 0, nan, 0],
        [0, 0, 1, 1, nan], [0, 0, nan, 0, 0], [2, 3, 3, 3, nan], [0, 0, 0, 0, nan],
        [1, 2, nan, 2, 2], [0, 1, 1, 1, nan], [0, 0, 0, 1, 0], [1, 2, 1, 2, nan],
        [1, 1, 2, 2, nan], [1, 1, 2, nan, 2], [1, 1, 0, nan, 0], [2, 1, 2, 1, nan],
        [2, 2, nan, 2, 2], [3, 2, 2, 2, nan], [2, 2, 2, nan, 2], [2, 2, 3, nan, 2],
        [2, 2, 2, nan, 2], [2, 2, nan, 1, 2], [2, 2, 2, 2, nan], [1, 1, 1, nan, 1],
    ]
)  # fmt: skip

# Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
# Bulletin, 76, 378-382: 30 patients x 6 psychiatrists, 1 depression, 2 personality disorder,
# 3 schizophrenia, 4 neurosis, 5 other; as the `diagnoses` data set of R's irr package.
# Published: kappa = .430; category kappas .245, .245, .520, .471, .566.
# R irr documentation, kappam.light(diagnoses): Light's kappa = 0.459.
FLEISS_1971 = np.array(
    [
        [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
        [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
        [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
        [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
        [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
        [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
        [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
    ]
)  # fmt: skip

# irrCAC data set distrib.6raters (Gwet 2014): 15 patients, raters per category (depression,
# personality disorder, schizophrenia, neurosis, other). Published in the irrCAC README:
# AC1 0.4448007 (se 0.08418757), Fleiss 0.4139265 (se 0.08119291), alpha 0.4204384,
# Brennan-Prediger 0.4388889 (se 0.08312142).
DISTRIB_6RATERS = from_distribution(
    [
        [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
        [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
        [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    ]
)  # fmt: skip

# irrCAC data set cont3x3abstractors (Gwet 2014): two abstractors classify 100 pregnancies as
# ectopic, AIU, NIU. Published in the irrCAC README: Cohen 0.7964094 (se 0.05891072), Scott
# 0.7962397, AC1 0.8493305, Brennan-Prediger 0.835, alpha 0.7972585, percent 0.89; and in its
# weighting vignette, quadratic weights: Cohen 0.8921569 (se 0.03535151), AC2 0.9402369.
ABSTRACTORS = from_table([[13, 0, 0], [0, 20, 7], [0, 4, 56]])

# SAS/STAT PROC FREQ documentation, AGREE option example (as reproduced in statsmodels'
# test_inter_rater.py): simple kappa 0.4842 (ASE 0.1380); weighted kappa with
# Cicchetti-Allison (linear) weights 0.4701 (ASE 0.1457).
SAS_AGREE = from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])

# Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
# reliability. Psychological Bulletin, 86, 420-428. Table 2: 6 targets x 4 judges; Table 4.
SHROUT_FLEISS_1979 = np.array(
    [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
)
SHROUT_FLEISS_1979_ICC = {
    "ICC(1,1)": 0.17,
    "ICC(2,1)": 0.29,
    "ICC(3,1)": 0.71,
    "ICC(1,k)": 0.44,
    "ICC(2,k)": 0.62,
    "ICC(3,k)": 0.91,
}

# Hollander, M., & Wolfe, D. A. (1973). Nonparametric Statistical Methods, p. 187: Hunter L
# lightness vs panel score of 9 lots of canned tuna, as in R's cor.test example.
# Published (R cor.test output): Kendall's tau = 0.4444444, Spearman's rho = 0.6.
TUNA_X = [44.4, 45.9, 41.9, 53.3, 44.7, 44.1, 50.7, 45.2, 60.1]
TUNA_Y = [2.6, 3.1, 2.5, 5.0, 3.6, 4.0, 5.2, 2.8, 3.8]
