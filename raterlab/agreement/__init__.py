"""Inter-rater agreement: coefficients, intervals, tables and interpretation bands.

Every coefficient takes a units x raters matrix (NumPy array or DataFrame; rows are units,
columns raters, NaN/None missing; numbers or labels) and returns an :class:`AgreementResult`
whose ``float()`` is the estimate. Undefined coefficients raise :class:`AgreementUndefined`
(a ``ValueError``) saying why, never NaN. Pure NumPy/pandas/SciPy.

>>> from raterlab.agreement import krippendorff_alpha, bootstrap_ci
>>> ratings = [[1, 1, None], [2, 2, 3], [3, 3, 3], [1, 2, 1]]
>>> round(float(krippendorff_alpha(ratings, level="ordinal")), 3)
0.773
"""

from raterlab.agreement._matrix import AgreementUndefined
from raterlab.agreement._stats import AgreementResult
from raterlab.agreement.alpha import LEVELS, krippendorff_alpha
from raterlab.agreement.bands import (
    KRIPPENDORFF_BANDS,
    LANDIS_KOCH_BANDS,
    apply_bands,
    landis_koch_band,
)
from raterlab.agreement.bootstrap import BootstrapResult, bootstrap_ci, bootstrap_replicates
from raterlab.agreement.correlation import kendall_tau, spearman_rho
from raterlab.agreement.crosstabs import agreement_matrix, category_agreement
from raterlab.agreement.gwet import brennan_prediger, gwet_ac1, gwet_ac2, percent_agreement
from raterlab.agreement.icc import ICC_KINDS, icc
from raterlab.agreement.kappa import cohen_kappa, conger_kappa, fleiss_kappa, light_kappa, scott_pi

__all__ = [
    "ICC_KINDS",
    "KRIPPENDORFF_BANDS",
    "LANDIS_KOCH_BANDS",
    "LEVELS",
    "AgreementResult",
    "AgreementUndefined",
    "BootstrapResult",
    "agreement_matrix",
    "apply_bands",
    "bootstrap_ci",
    "bootstrap_replicates",
    "brennan_prediger",
    "category_agreement",
    "cohen_kappa",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "gwet_ac2",
    "icc",
    "kendall_tau",
    "krippendorff_alpha",
    "landis_koch_band",
    "light_kappa",
    "percent_agreement",
    "scott_pi",
    "spearman_rho",
]
