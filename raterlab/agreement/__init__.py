"""Inter-rater agreement: coefficients, intervals, tables and interpretation bands.

Every coefficient takes a units x raters matrix (NumPy array or DataFrame; rows are units,
columns raters, NaN/None missing; numbers or labels) and returns an :class:`AgreementResult`
whose ``float()`` is the estimate. Undefined coefficients raise :class:`AgreementUndefined`
(a ``ValueError``) saying why, never NaN. Pure NumPy/pandas/SciPy; the names below are
imported when first used (:mod:`raterlab.lazy`), so the command line can read
:mod:`raterlab.agreement.names` without loading them.

>>> from raterlab.agreement import krippendorff_alpha, bootstrap_ci
>>> ratings = [[1, 1, None], [2, 2, 3], [3, 3, 3], [1, 2, 1]]
>>> round(float(krippendorff_alpha(ratings, level="ordinal")), 3)
0.773
"""

from raterlab.lazy import exports

__all__, __getattr__, __dir__ = exports(
    __name__,
    {
        "AgreementUndefined": "_matrix",
        "AgreementResult": "_stats",
        "LEVELS": "names",
        "krippendorff_alpha": "alpha",
        "KRIPPENDORFF_BANDS": "bands",
        "LANDIS_KOCH_BANDS": "bands",
        "apply_bands": "bands",
        "landis_koch_band": "bands",
        "BootstrapResult": "bootstrap",
        "bootstrap_ci": "bootstrap",
        "bootstrap_replicates": "bootstrap",
        "kendall_tau": "correlation",
        "spearman_rho": "correlation",
        "agreement_matrix": "crosstabs",
        "category_agreement": "crosstabs",
        "brennan_prediger": "gwet",
        "gwet_ac1": "gwet",
        "gwet_ac2": "gwet",
        "percent_agreement": "gwet",
        "ICC_KINDS": "intraclass",
        "icc": "intraclass",
        "cohen_kappa": "kappa",
        "conger_kappa": "kappa",
        "fleiss_kappa": "kappa",
        "light_kappa": "kappa",
        "scott_pi": "kappa",
    },
)
